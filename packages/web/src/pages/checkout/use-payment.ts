import { useCallback, useMemo, useRef, useState } from 'react';
import type { CheckoutInstance } from '@kassa/checkout';
import { ApiError, api } from '../../api/client.ts';
import type { BotcheckSettings } from '../../api/types.ts';
import { paymentBotcheck } from '../../botcheck/botcheck.ts';
import { saveToPay } from '../../saved-cards/saved-cards.ts';
import { createPaymentFlow, type PaymentFlow, type PaymentState } from './payment-flow.ts';

export type { PaymentState } from './payment-flow.ts';

/**
 * The payment flow (payment-flow.ts) wired to the real bot-check and the server, for the checkout page. `botcheck`:
 * the checkout session's settings, until a refused token makes the page ask the server again (the shop alert may
 * have switched payments to the merchant's interactive widget since the page opened).
 */
export function usePayment(orderId: string, botcheck: BotcheckSettings | undefined) {
  const [state, setState] = useState<PaymentState>({ step: 'idle' });
  const flow = useRef<PaymentFlow | null>(null);
  flow.current ??= createPaymentFlow(setState);
  const [asked, setAsked] = useState<BotcheckSettings | null>(null);
  const settings = asked ?? botcheck;
  const solver = useMemo(() => (settings ? paymentBotcheck(settings) : undefined), [settings]);

  function pay(checkout: CheckoutInstance): Promise<void> {
    if (!solver || !flow.current) return Promise.resolve();
    return flow.current.pay({
      checkout,
      startBotcheck: () => solver.start(),
      botcheck: () => solver.take(),
      charge: async (key, payment) => {
        try {
          await api.pay(orderId, key, payment);
        } catch (error) {
          // The next Pay runs the bot-check the server asks for now.
          if (error instanceof ApiError && error.problem.code === 'botcheck_failed')
            setAsked(await api.botcheckSettings('payment').catch(() => null));
          throw error;
        }
      },
      saveToPay,
      newIdempotencyKey: () => crypto.randomUUID(),
    });
  }

  /** Starts the bot-check ahead of Pay (the shopper is typing a card); Pay takes its token, once. */
  const solveBotcheckAhead = useCallback((): void => solver?.start(), [solver]);

  return { state, pay, solveBotcheckAhead };
}
