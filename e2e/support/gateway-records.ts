import { currentProduct } from './products.ts';

// What the sandbox gateway keeps with a transaction, read through its TEST-ONLY view (packages/sandbox README,
// "Device data"): the device data the sale carried and the collector session it names, as the provider's fraud tools
// would get them, and the browser its 3-D Secure lookup described.

export interface TransactionDeviceData {
  /** The string `transaction.sale` was given (`deviceData`). */
  deviceData: string;
  /** The session the gateway's collector recorded in the shopper's browser; null when none matches. */
  deviceSession: unknown;
  /** The shopper's browser as the 3-D Secure lookup described it (colorDepth, language, timeZone, ...); null when none. */
  threeDSecureBrowser: Record<string, unknown> | null;
}

export async function transactionDeviceData(transactionId: string): Promise<TransactionDeviceData> {
  const response = await fetch(`${currentProduct().sandboxUrl}/__sandbox/transactions/${transactionId}/device-data`);
  if (response.status !== 200) throw new Error(`no device data for ${transactionId}: ${response.status}`);
  return (await response.json()) as TransactionDeviceData;
}
