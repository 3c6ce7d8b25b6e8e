import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client.ts';
import type { Problem } from '../../api/types.ts';
import { BotcheckError } from '../../botcheck/botcheck.ts';
import { declineMessage, problemMessage } from '../../i18n/messages.ts';
import { createPaymentFlow, type PaymentPorts, type PaymentState } from './payment-flow.ts';

// The flow's logic in isolation. The checkout, the bot-check and the server are stand-ins here (a unit test runs
// without a browser, frames or a gateway); e2e/tests run the same flow against the real ones in Chromium.

/** A checkout as the flow sees it: a typed card becomes a nonce once, and stays selected until cleared. */
class StandInCheckout {
  typed: string | null = null;
  selected: string | null = null;
  /** The selected method is a wallet approved with "Save … for my next payments" ticked, or a card with "Save card". */
  vaultRequested = false;
  clears = 0;
  private nonces = 0;

  type(card: string): void {
    this.typed = card;
    this.selected = null;
    this.vaultRequested = false;
  }

  /** A card typed with "Save card" ticked: the checkout hands it over to be saved while paying. */
  typeToSave(card: string): void {
    this.type(card);
    this.vaultRequested = true;
  }

  /** A wallet approved in its window, to be saved while paying. */
  approveWalletToSave(wallet: string): void {
    this.typed = null;
    this.selected = `nonce-${++this.nonces}-${wallet}`;
    this.vaultRequested = true;
  }

  async requestPaymentMethod() {
    if (this.selected === null) {
      if (this.typed === null) throw new Error('invalid_fields');
      this.selected = `nonce-${++this.nonces}-${this.typed}`;
    }
    return {
      nonce: this.selected,
      deviceData: 'device-data',
      ...(this.vaultRequested ? { vaultRequested: true } : {}),
    } as Awaited<ReturnType<PaymentPorts['checkout']['requestPaymentMethod']>>;
  }

  clearSelectedPaymentMethod(): void {
    this.clears += 1;
    this.typed = null;
    this.selected = null;
    this.vaultRequested = false;
  }
}

interface Charge {
  key: string;
  nonce: string;
  botcheck: string;
}

/**
 * The ports, with the server's answers given per call (a Problem is thrown as the client would): `answers` for the
 * charges (and their bot-checks), `saveAnswers` for the saves of cards and wallets.
 */
function setUp(answers: Array<'ok' | Problem | 'botcheck-timeout'> = [], saveAnswers: Array<'ok' | Problem> = []) {
  const checkout = new StandInCheckout();
  const charges: Charge[] = [];
  const saves: Array<{ key: string; nonce: string }> = [];
  const states: PaymentState[] = [];
  let keys = 0;
  let tokens = 0;
  const next = () => answers.shift() ?? 'ok';
  let pending: 'ok' | Problem | 'botcheck-timeout' = 'ok';
  const events: string[] = [];
  const ports: PaymentPorts = {
    checkout,
    startBotcheck: () => events.push('bot-check started'),
    botcheck: async () => {
      pending = next();
      if (pending === 'botcheck-timeout') throw new BotcheckError('botcheck_execute_timeout');
      return `token-${++tokens}`;
    },
    charge: async (key, payment) => {
      charges.push({ key, nonce: payment.nonce, botcheck: payment.botcheck });
      if (pending !== 'ok' && pending !== 'botcheck-timeout') throw new ApiError(pending);
    },
    saveToPay: async (key, nonce) => {
      saves.push({ key, nonce });
      const answer = saveAnswers.shift() ?? 'ok';
      if (answer !== 'ok') throw new ApiError(answer);
      return `saved-${saves.length}-${nonce}`;
    },
    newIdempotencyKey: () => `key-${++keys}`,
  };
  const flow = createPaymentFlow((state) => states.push(state));
  return { checkout, charges, saves, states, events, pay: () => flow.pay(ports), last: () => states.at(-1) };
}

const networkError: Problem = { status: 0, code: 'network_error' };
const declined: Problem = {
  status: 402,
  code: 'payment_declined',
  decline: { reason: 'processor_declined', processorResponseCode: '2000', processorResponseText: 'Do Not Honor' },
};

describe('the payment flow', () => {
  it('goes tokenizing, bot-check, charging, paid, sending the nonce, its device data and the token', async () => {
    const flow = setUp(['ok']);
    flow.checkout.type('visa');
    await flow.pay();
    expect(flow.states.map((state) => state.step)).toEqual(['tokenizing', 'botcheck', 'charging', 'paid']);
    expect(flow.charges).toEqual([{ key: 'key-1', nonce: 'nonce-1-visa', botcheck: 'token-1' }]);
  });

  it('starts the bot-check as Pay is pressed, before the card is tokenized, so the solving and the tokenizing overlap', async () => {
    const flow = setUp(['ok']);
    flow.checkout.type('visa');
    const tokenize = flow.checkout.requestPaymentMethod.bind(flow.checkout);
    flow.checkout.requestPaymentMethod = () => {
      flow.events.push('card tokenized');
      return tokenize();
    };
    await flow.pay();
    expect(flow.events).toEqual(['bot-check started', 'card tokenized']);
    expect(flow.last()).toEqual({ step: 'paid' });
  });

  it('keeps the card after a network error: Pay again sends the same nonce under the same key, no retyping', async () => {
    const flow = setUp([networkError, 'ok']);
    flow.checkout.type('visa');
    await flow.pay();
    expect(flow.last()).toEqual({ step: 'idle', error: problemMessage(networkError) });
    expect(flow.checkout.clears).toBe(0);
    await flow.pay();
    expect(flow.last()).toEqual({ step: 'paid' });
    expect(flow.charges.map(({ key, nonce }) => ({ key, nonce }))).toEqual([
      { key: 'key-1', nonce: 'nonce-1-visa' },
      { key: 'key-1', nonce: 'nonce-1-visa' },
    ]);
    // A retry is a new request to the bot-check: each token is used once.
    expect(flow.charges.map((charge) => charge.botcheck)).toEqual(['token-1', 'token-2']);
  });

  it('keeps the card and the key when the gateway did not answer, so the server can finish the same attempt', async () => {
    const flow = setUp([{ status: 502, code: 'gateway_unavailable' }, 'ok']);
    flow.checkout.type('visa');
    await flow.pay();
    await flow.pay();
    expect(flow.checkout.clears).toBe(0);
    expect(new Set(flow.charges.map((charge) => charge.key))).toEqual(new Set(['key-1']));
    expect(flow.last()).toEqual({ step: 'paid' });
  });

  it('clears the card after a decline and says why; the next card is charged under a new key', async () => {
    const flow = setUp([declined, 'ok']);
    flow.checkout.type('visa');
    await flow.pay();
    expect(flow.last()).toEqual({ step: 'idle', error: declineMessage(declined.decline) });
    expect(flow.checkout.clears).toBe(1);
    expect(flow.checkout.selected).toBeNull();
    flow.checkout.type('mastercard');
    await flow.pay();
    expect(flow.charges.map(({ key, nonce }) => ({ key, nonce }))).toEqual([
      { key: 'key-1', nonce: 'nonce-1-visa' },
      { key: 'key-2', nonce: 'nonce-2-mastercard' },
    ]);
    expect(flow.last()).toEqual({ step: 'paid' });
  });

  it('clears the card when the shop requires a 3-D Secure liability shift the card did not have, and says so', async () => {
    const required: Problem = {
      status: 402,
      code: 'three_d_secure_required',
      decline: { reason: 'gateway_rejected', gatewayRejectionReason: 'three_d_secure' },
    };
    const flow = setUp([required]);
    flow.checkout.type('visa');
    await flow.pay();
    expect(flow.last()).toEqual({ step: 'idle', error: problemMessage(required) });
    expect(problemMessage(required)).toContain('3-D Secure');
    expect(flow.checkout.clears).toBe(1);
  });

  it('charges nothing when the bot-check fails, keeps the card, and Pay again works without retyping', async () => {
    const flow = setUp(['botcheck-timeout', 'ok']);
    flow.checkout.type('visa');
    await flow.pay();
    expect(flow.charges).toEqual([]);
    expect(flow.last()).toEqual({ step: 'idle', error: problemMessage({ status: 0, code: 'botcheck_execute_timeout' }) });
    expect(flow.checkout.clears).toBe(0);
    await flow.pay();
    expect(flow.charges).toEqual([{ key: 'key-1', nonce: 'nonce-1-visa', botcheck: 'token-1' }]);
    expect(flow.last()).toEqual({ step: 'paid' });
  });

  it('leaves an incomplete form to the checkout: back to idle with no message of its own, nothing charged', async () => {
    const flow = setUp();
    await flow.pay();
    expect(flow.states).toEqual([{ step: 'tokenizing' }, { step: 'idle' }]);
    expect(flow.charges).toEqual([]);
  });

  it('ignores a second Pay while the first runs (a double click charges once)', async () => {
    const flow = setUp(['ok', 'ok']);
    flow.checkout.type('visa');
    await Promise.all([flow.pay(), flow.pay()]);
    expect(flow.charges).toHaveLength(1);
  });

  it('ends as paid when an earlier attempt already paid the order', async () => {
    const flow = setUp([{ status: 409, code: 'order_already_paid' }]);
    flow.checkout.type('visa');
    await flow.pay();
    expect(flow.last()).toEqual({ step: 'paid' });
  });

  it('saves a wallet or a card the shopper asked to keep, then pays with the saved one; a card without "Save card" is not saved', async () => {
    const flow = setUp(['ok']);
    flow.checkout.approveWalletToSave('paypal');
    await flow.pay();
    expect(flow.states.map((state) => state.step)).toEqual(['tokenizing', 'saving', 'botcheck', 'charging', 'paid']);
    expect(flow.saves).toEqual([{ key: 'key-1', nonce: 'nonce-1-paypal' }]);
    expect(flow.charges).toEqual([{ key: 'key-2', nonce: 'saved-1-nonce-1-paypal', botcheck: 'token-1' }]);

    const saved = setUp(['ok']);
    saved.checkout.typeToSave('visa');
    await saved.pay();
    expect(saved.saves).toEqual([{ key: 'key-1', nonce: 'nonce-1-visa' }]);
    expect(saved.charges).toEqual([{ key: 'key-2', nonce: 'saved-1-nonce-1-visa', botcheck: 'token-1' }]);

    const card = setUp(['ok']);
    card.checkout.type('visa');
    await card.pay();
    expect(card.saves).toEqual([]);
  });

  it("a card the save refused (saved already, failing verification) is asked for again with one message, the shop's; nothing charged", async () => {
    for (const refusal of [
      { status: 409, code: 'payment_method_duplicate' },
      { status: 422, code: 'card_verification_failed' },
    ]) {
      const flow = setUp([], [refusal]);
      flow.checkout.typeToSave('visa');
      await flow.pay();
      expect(flow.charges).toEqual([]);
      expect(flow.checkout.clears).toBe(1);
      expect(flow.last()).toEqual({ step: 'idle', error: problemMessage(refusal) });
    }
  });

  it('after a network error on the charge of a wallet saved on the way, Pay again pays with the same saved nonce and key, saving nothing again', async () => {
    const flow = setUp([networkError, 'ok']);
    flow.checkout.approveWalletToSave('venmo');
    await flow.pay();
    expect(flow.last()).toEqual({ step: 'idle', error: problemMessage(networkError) });
    await flow.pay();
    expect(flow.saves).toHaveLength(1);
    expect(flow.charges.map(({ key, nonce }) => ({ key, nonce }))).toEqual([
      { key: 'key-2', nonce: 'saved-1-nonce-1-venmo' },
      { key: 'key-2', nonce: 'saved-1-nonce-1-venmo' },
    ]);
    expect(flow.last()).toEqual({ step: 'paid' });
  });

  it('a save that did not answer is sent again under its key; one the gateway refused asks for the wallet again; neither charges', async () => {
    const lost = setUp(['ok'], [networkError, 'ok']);
    lost.checkout.approveWalletToSave('paypal');
    await lost.pay();
    expect(lost.charges).toEqual([]);
    expect(lost.checkout.clears).toBe(0);
    await lost.pay();
    expect(lost.saves).toEqual([
      { key: 'key-1', nonce: 'nonce-1-paypal' },
      { key: 'key-1', nonce: 'nonce-1-paypal' },
    ]);
    expect(lost.last()).toEqual({ step: 'paid' });

    const invalid: Problem = { status: 422, code: 'payment_method_invalid' };
    const refused = setUp([], [invalid]);
    refused.checkout.approveWalletToSave('paypal');
    await refused.pay();
    expect(refused.charges).toEqual([]);
    expect(refused.checkout.clears).toBe(1);
    expect(refused.last()).toEqual({ step: 'idle', error: problemMessage(invalid) });
  });

  it('never sends a key again once the server says it belongs to another request', async () => {
    const flow = setUp([{ status: 422, code: 'idempotency_key_reused' }, 'ok']);
    flow.checkout.type('visa');
    await flow.pay();
    await flow.pay();
    expect(flow.charges.map((charge) => charge.key)).toEqual(['key-1', 'key-2']);
  });
});
