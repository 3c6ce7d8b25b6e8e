import type { CheckoutInstance } from '@kassa/checkout';
import { ApiError } from '../../api/client.ts';
import type { Problem } from '../../api/types.ts';
import { BotcheckError } from '../../botcheck/botcheck.ts';
import { problemMessage } from '../../i18n/messages.ts';

export type PaymentState =
  | { step: 'idle'; error?: string }
  | { step: 'tokenizing' | 'saving' | 'botcheck' | 'charging' }
  | { step: 'paid' };

/**
 * What one Pay press needs from outside: the checkout's card, the bot-check's token, the server's charge, and the
 * server's save of a card or wallet the shopper asked to keep.
 */
export interface PaymentPorts {
  checkout: Pick<CheckoutInstance, 'requestPaymentMethod' | 'clearSelectedPaymentMethod'>;
  /** Starts solving the bot-check (if nothing is solved or being solved yet), so it runs while the card is tokenized. */
  startBotcheck(): void;
  /** The bot-check's token: the one started ahead (once), else a new one. */
  botcheck(): Promise<string>;
  charge(idempotencyKey: string, payment: { nonce: string; deviceData?: string; botcheck: string }): Promise<void>;
  /** Saves a card or an approved wallet (a wallet may be found saved already); answers a nonce paying with it. */
  saveToPay(idempotencyKey: string, nonce: string): Promise<string>;
  newIdempotencyKey(): string;
}

export interface PaymentFlow {
  /** Runs one Pay press; a press while another runs is ignored (a double click charges once). */
  pay(ports: PaymentPorts): Promise<void>;
}

/** Answers after which the gateway has used the nonce: the checkout is asked for a card or an approval again. */
const CONSUMED = [
  'payment_declined',
  'three_d_secure_required',
  'payment_method_invalid',
  'payment_method_duplicate',
  'card_verification_failed',
];

/**
 * The Pay button's flow, free of React so each outcome can be tested: the checkout hands over a nonce, the bot-check
 * gives a token, the server charges the order. One Idempotency-Key per nonce, so a retried request (network hiccup,
 * double submit) can never charge twice; a new card gets a new nonce and so a new key.
 */
export function createPaymentFlow(onState: (state: PaymentState) => void): PaymentFlow {
  const keys = new Map<string, string>();
  /** A card or wallet saved on the way: the nonce paying with the saved one, per nonce saved, so Pay again resumes that payment. */
  const savedNonces = new Map<string, string>();
  let inFlight = false;

  const keyFor = (nonce: string, ports: PaymentPorts): string => {
    const key = keys.get(nonce) ?? ports.newIdempotencyKey();
    keys.set(nonce, key);
    return key;
  };

  async function run(ports: PaymentPorts): Promise<void> {
    onState({ step: 'tokenizing' });
    ports.startBotcheck();
    let method: Awaited<ReturnType<PaymentPorts['checkout']['requestPaymentMethod']>>;
    try {
      method = await ports.checkout.requestPaymentMethod();
    } catch {
      // The checkout shows what is wrong inside itself (field errors, sheet error).
      return onState({ step: 'idle' });
    }
    let { nonce } = method;
    const { deviceData } = method;
    try {
      // "Save card", "Save PayPal for my next payments" (any wallet's): saved through the server first (its save
      // bot-check, the card-save rules, one copy per account), then paid with the saved method, as a saved card pays.
      if (method.vaultRequested === true) {
        onState({ step: 'saving' });
        const approved = nonce;
        nonce = savedNonces.get(approved) ?? (await ports.saveToPay(keyFor(approved, ports), approved));
        savedNonces.set(approved, nonce);
      }
      onState({ step: 'botcheck' });
      const token = await ports.botcheck();
      onState({ step: 'charging' });
      await ports.charge(keyFor(nonce, ports), { nonce, ...(deviceData === undefined ? {} : { deviceData }), botcheck: token });
      onState({ step: 'paid' });
    } catch (error) {
      const problem = problemOf(error);
      // An earlier attempt (a lost answer the server finished since) already paid the order.
      if (problem.code === 'order_already_paid') return onState({ step: 'paid' });
      // A decline (for want of a 3-D Secure liability shift too) consumed the nonce: the shopper enters a card
      // again. Anything else (network failure, gateway unavailable, another attempt in progress, bot-check) keeps the
      // card selected in the checkout and its key here, so Pay again resumes the same attempt without retyping, and
      // the server answers it once.
      // A card or wallet the gateway would not save (a card saved already, failing verification; a wallet's
      // payment_method_invalid) is entered or approved again too.
      if (CONSUMED.includes(problem.code)) {
        ports.checkout.clearSelectedPaymentMethod();
        savedNonces.clear();
      }
      // The key belongs to another request: never send it again.
      if (problem.code === 'idempotency_key_reused') {
        keys.clear();
        savedNonces.clear();
      }
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
