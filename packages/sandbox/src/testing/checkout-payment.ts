// Test and measurement support only (scripts/measure-state.ts, the bench's --seed-payments): one payment made in
// process as Kassa's checkout makes it at the gateway, without HTTP. Not exported from src/index.ts.
import { randomUUID } from 'node:crypto';
import type { Authorization } from '../core/fingerprint.ts';
import type { SandboxGateway } from '../core/gateway.ts';

/** The ids one checkout payment leaves in the sandbox's state. */
export interface CheckoutPaymentIds {
  deviceSessionId: string;
  nonce: string;
  orderId: string;
  apiRequestKey: string;
  transactionId: string;
}

/**
 * A device session from the collector, a tokenized card (a guest's), then a sale with the order id, the device data,
 * an apiRequestKey and submitForSettlement, all at the gateway's current time. `name` makes the order id and the
 * apiRequestKey unique; `amount` as the SDK sends it (`12.50`).
 */
export function makeCheckoutPayment(gateway: SandboxGateway, name: string, amount: string): CheckoutPaymentIds {
  const guest: Authorization = {
    merchantId: gateway.credentials.merchantId,
    customerId: null,
    expiresAt: Number.MAX_SAFE_INTEGER,
  };
  // The collector's session id: 32 hex digits.
  const deviceSessionId = randomUUID().replaceAll('-', '');
  gateway.deviceData.recordSession(deviceSessionId, { screenWidth: 390, screenHeight: 844, language: 'en-GB' }, gateway.now());
  const nonce = gateway.tokenizeCard(guest, {
    number: '4111111111111111',
    expirationDate: '12/2030',
    cvv: '123',
    postalCode: '10115',
  });
  if (!nonce.ok) throw new Error(nonce.message);
  const orderId = `order-${name}`;
  const apiRequestKey = `key-${name}`;
  const sale = gateway.sale(
    {
      amount,
      paymentMethodNonce: nonce.value.nonce,
      orderId,
      deviceData: JSON.stringify({
        device_session_id: deviceSessionId,
        fraud_merchant_id: '600000',
        correlation_id: deviceSessionId,
      }),
      options: { submitForSettlement: true },
    },
    apiRequestKey,
  );
  if (sale.kind !== 'success') throw new Error(`sale ${name}: ${sale.kind}`);
  return { deviceSessionId, nonce: nonce.value.nonce, orderId, apiRequestKey, transactionId: sale.transaction.id };
}
