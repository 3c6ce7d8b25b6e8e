import { useRef, useState } from 'react';
import type { CheckoutInstance } from '@kassa/checkout';
import { api, ApiError } from '../../api/client.ts';
import type { BotcheckSettings } from '../../api/types.ts';
import { BotcheckError, runBotcheck } from '../../botcheck/altcha.ts';
import { problemMessage } from '../../i18n/messages.ts';

export type PaymentState =
  | { step: 'idle'; error?: string }
  | { step: 'tokenizing' | 'botcheck' | 'charging' }
  | { step: 'paid' };

/**
 * The Pay button's flow: the checkout hands over a nonce, the bot-check gives a token, the server charges the order.
 * One Idempotency-Key per nonce, so a retried request (network hiccup, double submit) can never charge twice; a new
 * card gets a new nonce and so a new key.
 */
export function usePayment(orderId: string, botcheck: BotcheckSettings | undefined) {
  const [state, setState] = useState<PaymentState>({ step: 'idle' });
  const inFlight = useRef(false);
  const keys = useRef(new Map<string, string>());

  async function pay(checkout: CheckoutInstance): Promise<void> {
    if (inFlight.current || !botcheck) return;
    inFlight.current = true;
    try {
      setState({ step: 'tokenizing' });
      let nonce: string;
      let deviceData: string | undefined;
      try {
        ({ nonce, deviceData } = await checkout.requestPaymentMethod());
      } catch {
        // The checkout shows what is wrong inside itself (field errors, sheet error).
        setState({ step: 'idle' });
        return;
      }
      setState({ step: 'botcheck' });
      const token = await runBotcheck(botcheck);
      setState({ step: 'charging' });
      const key = keys.current.get(nonce) ?? crypto.randomUUID();
      keys.current.set(nonce, key);
      await api.pay(orderId, key, { nonce, deviceData, botcheck: token });
      setState({ step: 'paid' });
    } catch (error) {
      const code = error instanceof BotcheckError ? error.code : undefined;
      const problem = error instanceof ApiError ? error.problem : { status: 0, code: code ?? 'unexpected_error' };
      // An earlier attempt (a lost answer the server finished since) already paid the order.
      if (problem.code === 'order_already_paid') return setState({ step: 'paid' });
      // A decline consumed the nonce: the shopper enters a card again. Anything else (network failure, gateway
      // unavailable, another attempt in progress, bot-check) keeps the nonce and its key, so Pay again resumes the
      // same attempt and the server answers it once.
      if (problem.code === 'payment_declined') checkout.clearSelectedPaymentMethod();
      // The key belongs to another request: never send it again.
      if (problem.code === 'idempotency_key_reused') keys.current.clear();
      setState({ step: 'idle', error: problemMessage(problem) });
    } finally {
      inFlight.current = false;
    }
  }

  return { state, pay };
}
