import type braintree from 'braintree';

/** Every transaction the gateway holds, through the official SDK's search (what the merchant's gateway account shows). */
export function gatewayTransactions(gateway: braintree.BraintreeGateway, since: Date): Promise<braintree.Transaction[]> {
  return new Promise((resolve, reject) => {
    const found: braintree.Transaction[] = [];
    const stream = gateway.transaction.search((search) => {
      search.createdAt().min(since);
    });
    stream.on('data', (transaction: braintree.Transaction) => found.push(transaction));
    stream.on('end', () => resolve(found));
    stream.on('error', reject);
  });
}

/** The statuses of a sale that charged (or will charge) the card. */
export const CHARGED_AT_GATEWAY = new Set(['authorized', 'submitted_for_settlement', 'settling', 'settled']);
