import { useCallback, useMemo, useRef, useState } from 'react';
import type { CheckoutInstance } from '@kassa/checkout';
import { api } from '../../api/client.ts';
import type { BotcheckSettings } from '../../api/types.ts';
import { paymentBotcheck } from '../../botcheck/botcheck.ts';
import { saveWalletToPay } from '../../saved-cards/saved-cards.ts';
import { createPaymentFlow, type PaymentFlow, type PaymentState } from './payment-flow.ts';

export type { PaymentState } from './payment-flow.ts';

/** The payment flow (payment-flow.ts) wired to the real bot-check and the server, for the checkout page. */
export function usePayment(orderId: string, botcheck: BotcheckSettings | undefined) {
  const [state, setState] = useState<PaymentState>({ step: 'idle' });
  const flow = useRef<PaymentFlow | null>(null);
  flow.current ??= createPaymentFlow(setState);
  const solver = useMemo(() => (botcheck ? paymentBotcheck(botcheck) : undefined), [botcheck]);

  function pay(checkout: CheckoutInstance): Promise<void> {
    if (!solver || !flow.current) return Promise.resolve();
    return flow.current.pay({
      checkout,
      startBotcheck: () => solver.start(),
      botcheck: () => solver.take(),
      charge: async (key, payment) => {
        await api.pay(orderId, key, payment);
      },
      saveWallet: saveWalletToPay,
      newIdempotencyKey: () => crypto.randomUUID(),
    });
  }

  /** Starts the bot-check ahead of Pay (the shopper is typing a card); Pay takes its token, once. */
  const solveBotcheckAhead = useCallback((): void => solver?.start(), [solver]);

  return { state, pay, solveBotcheckAhead };
}
