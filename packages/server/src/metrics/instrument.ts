import type { BotcheckVerifier } from '../botcheck/verifier.ts';
import type { GatewayNotification, WebhookVerifier } from '../gateway/gateway-webhooks.ts';
import { GatewayUnavailableError } from '../gateway/gateway.ts';
import type { PaymentGateway, SaleResult } from '../gateway/gateway.ts';
import type { Metrics } from './metrics.ts';

const SALE_OUTCOME: Record<SaleResult['kind'], string> = {
  charged: 'succeeded',
  declined: 'declined',
  refused: 'refused',
  undecided: 'undecided',
};

/** Times one gateway call: `ok` when the gateway answered (whatever it said), `unavailable` when it did not. */
async function timed<T>(metrics: Metrics, operation: string, run: () => Promise<T>): Promise<T> {
  const stop = metrics.gatewayDuration.startTimer({ operation });
  try {
    const result = await run();
    stop({ result: 'ok' });
    return result;
  } catch (error) {
    stop({ result: error instanceof GatewayUnavailableError ? 'unavailable' : 'error' });
    throw error;
  }
}

/** The gateway with every call timed and every sale's outcome counted; it answers exactly what the gateway does. */
export function instrumentGateway(gateway: PaymentGateway, metrics: Metrics): PaymentGateway {
  return {
    createCustomer: (input) => timed(metrics, 'create_customer', () => gateway.createCustomer(input)),
    generateClientToken: () => timed(metrics, 'client_token', () => gateway.generateClientToken()),
    async sale(input) {
      try {
        const result = await timed(metrics, 'sale', () => gateway.sale(input));
        metrics.paymentAttempts.inc({ outcome: SALE_OUTCOME[result.kind] });
        return result;
      } catch (error) {
        if (error instanceof GatewayUnavailableError) metrics.paymentAttempts.inc({ outcome: 'unavailable' });
        throw error;
      }
    },
    voidTransaction: (transactionId, input) => timed(metrics, 'void', () => gateway.voidTransaction(transactionId, input)),
    refundTransaction: (transactionId, input) => timed(metrics, 'refund', () => gateway.refundTransaction(transactionId, input)),
    transactionStatus: (transactionId) => timed(metrics, 'find', () => gateway.transactionStatus(transactionId)),
    transactionHistory: (transactionId) => timed(metrics, 'find', () => gateway.transactionHistory(transactionId)),
  };
}

/**
 * Counts each verdict of the bot-check verifier. The verifier is kept (its `verify` replaced on the instance), not
 * wrapped: the challenge routes recognise ALTCHA's verifier by its class.
 */
export function instrumentBotcheck<Verifier extends BotcheckVerifier>(verifier: Verifier, metrics: Metrics): Verifier {
  const verify = verifier.verify.bind(verifier);
  verifier.verify = async (token, binding, context) => {
    const verdict = await verify(token, binding, context);
    metrics.botcheckVerifications.inc({
      provider: verifier.provider,
      outcome: verdict.ok ? 'passed' : verdict.unavailable ? 'unavailable' : 'failed',
    });
    return verdict;
  };
  return verifier;
}

/** The webhook verifier with the lag of each verified notification observed (the gateway's clock against ours). */
export function instrumentWebhooks(verifier: WebhookVerifier, metrics: Metrics, now: () => number = Date.now): WebhookVerifier {
  return {
    async parse(signature, payload): Promise<GatewayNotification> {
      const notification = await verifier.parse(signature, payload);
      const sent = Date.parse(notification.timestamp);
      if (Number.isFinite(sent)) metrics.webhookLag.observe({ kind: notification.kind }, Math.max(0, (now() - sent) / 1000));
      return notification;
    },
  };
}
