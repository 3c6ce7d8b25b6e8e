import type { CheckoutInstance } from '@kassa/checkout';
import { ApiError } from '../../api/client.ts';
import type { Problem } from '../../api/types.ts';
import { BotcheckError } from '../../botcheck/botcheck.ts';
import { problemMessage } from '../../i18n/messages.ts';

export type PaymentState = { step: 'idle'; error?: string } | { step: 'tokenizing' | 'botcheck' | 'charging' } | { step: 'paid' };

/** What one Pay press needs from outside: the checkout's card, the bot-check's token, the server's charge. */
export interface PaymentPorts {
  checkout: Pick<CheckoutInstance, 'requestPaymentMethod' | 'clearSelectedPaymentMethod'>;
  botcheck(): Promise<string>;
  charge(idempotencyKey: string, payment: { nonce: string; deviceData?: string; botcheck: string }): Promise<void>;
  newIdempotencyKey(): string;
}

export interface PaymentFlow {
  /** Runs one Pay press; a press while another runs is ignored (a double click charges once). */
  pay(ports: PaymentPorts): Promise<void>;
}

/**
 * The Pay button's flow, free of React so each outcome can be tested: the checkout hands over a nonce, the bot-check
 * gives a token, the server charges the order. One Idempotency-Key per nonce, so a retried request (network hiccup,
 * double submit) can never charge twice; a new card gets a new nonce and so a new key.
 */
export function createPaymentFlow(onState: (state: PaymentState) => void): PaymentFlow {
  const keys = new Map<string, string>();
  let inFlight = false;

  async function run(ports: PaymentPorts): Promise<void> {
    onState({ step: 'tokenizing' });
    let nonce: string;
    let deviceData: string | undefined;
    try {
      ({ nonce, deviceData } = await ports.checkout.requestPaymentMethod());
    } catch {
      // The checkout shows what is wrong inside itself (field errors, sheet error).
      return onState({ step: 'idle' });
    }
    try {
      onState({ step: 'botcheck' });
      const token = await ports.botcheck();
      onState({ step: 'charging' });
      const key = keys.get(nonce) ?? ports.newIdempotencyKey();
      keys.set(nonce, key);
      await ports.charge(key, { nonce, ...(deviceData === undefined ? {} : { deviceData }), botcheck: token });
      onState({ step: 'paid' });
    } catch (error) {
      const problem = problemOf(error);
      // An earlier attempt (a lost answer the server finished since) already paid the order.
      if (problem.code === 'order_already_paid') return onState({ step: 'paid' });
      // A decline (for want of a 3-D Secure liability shift too) consumed the nonce: the shopper enters a card
      // again. Anything else (network failure, gateway unavailable, another attempt in progress, bot-check) keeps the
      // card selected in the checkout and its key here, so Pay again resumes the same attempt without retyping, and
      // the server answers it once.
      if (problem.code === 'payment_declined' || problem.code === 'three_d_secure_required')
        ports.checkout.clearSelectedPaymentMethod();
      // The key belongs to another request: never send it again.
      if (problem.code === 'idempotency_key_reused') keys.clear();
      onState({ step: 'idle', error: problemMessage(problem) });
    }
  }

  return {
    async pay(ports) {
      if (inFlight) return;
      inFlight = true;
      try {
        await run(ports);
      } finally {
        inFlight = false;
      }
    },
  };
}

function problemOf(error: unknown): Problem {
  if (error instanceof ApiError) return error.problem;
  if (error instanceof BotcheckError) return { status: 0, code: error.code };
  return { status: 0, code: 'unexpected_error' };
}
