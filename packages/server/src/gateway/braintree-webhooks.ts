import type braintree from 'braintree';
import { InvalidWebhookError } from './gateway-webhooks.ts';
import type { GatewayNotification, WebhookVerifier } from './gateway-webhooks.ts';

/** The SDK gives dates as Date or as the XML's text depending on the field: one ISO string either way. */
function isoOf(value: unknown): string {
  const date = value instanceof Date ? value : new Date(String(value));
  if (Number.isNaN(date.getTime())) throw new InvalidWebhookError('notification without a valid timestamp');
  return date.toISOString();
}

function dateOnly(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  return value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10);
}

/** Verifies with the SDK's `webhookNotification.parse` (HMAC over the payload with the merchant's keys). */
export class BraintreeWebhookVerifier implements WebhookVerifier {
  readonly #client: braintree.BraintreeGateway;

  constructor(client: braintree.BraintreeGateway) {
    this.#client = client;
  }

  async parse(signature: string, payload: string): Promise<GatewayNotification> {
    let parsed: braintree.WebhookNotification;
    try {
      parsed = await this.#client.webhookNotification.parse(signature, payload);
    } catch (error) {
      // The SDK's InvalidSignatureError (wrong key, tampered payload, malformed signature) and any unreadable payload.
      throw new InvalidWebhookError(error instanceof Error ? error.name : 'unreadable notification');
    }
    const base = { kind: parsed.kind, timestamp: isoOf(parsed.timestamp) };
    if ('transaction' in parsed && parsed.transaction !== undefined) {
      return { ...base, subject: 'transaction', transaction: { id: parsed.transaction.id, status: parsed.transaction.status } };
    }
    if ('subscription' in parsed && parsed.subscription !== undefined) {
      const s = parsed.subscription;
      return {
        ...base,
        subject: 'subscription',
        subscription: {
          id: s.id,
          planId: s.planId ?? null,
          status: s.status ?? null,
          nextBillingDate: dateOnly(s.nextBillingDate),
          failureCount: s.failureCount === undefined ? null : Number(s.failureCount),
        },
      };
    }
    if ('dispute' in parsed && parsed.dispute !== undefined) {
      const d = parsed.dispute;
      return {
        ...base,
        subject: 'dispute',
        dispute: {
          id: d.id,
          status: d.status,
          kind: d.kind,
          reason: d.reason,
          amount: String(d.amountDisputed),
          currency: d.currencyIsoCode,
          transactionId: d.transaction.id,
        },
      };
    }
    return { ...base, subject: 'other', subjectId: '' };
  }
}
