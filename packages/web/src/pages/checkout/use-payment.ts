import { useRef, useState } from 'react';
import type { CheckoutInstance } from '@kassa/checkout';
import { api } from '../../api/client.ts';
import type { BotcheckSettings } from '../../api/types.ts';
import { runBotcheck } from '../../botcheck/botcheck.ts';
import { saveWalletToPay } from '../../saved-cards/saved-cards.ts';
import { createPaymentFlow, type PaymentFlow, type PaymentState } from './payment-flow.ts';

export type { PaymentState } from './payment-flow.ts';

/** The payment flow (payment-flow.ts) wired to the real bot-check and the server, for the checkout page. */
export function usePayment(orderId: string, botcheck: BotcheckSettings | undefined) {
  const [state, setState] = useState<PaymentState>({ step: 'idle' });
  const flow = useRef<PaymentFlow | null>(null);
  flow.current ??= createPaymentFlow(setState);

  function pay(checkout: CheckoutInstance): Promise<void> {
    if (!botcheck || !flow.current) return Promise.resolve();
    return flow.current.pay({
      checkout,
      botcheck: () => runBotcheck(botcheck),
      charge: async (key, payment) => {
        await api.pay(orderId, key, payment);
      },
      saveWallet: saveWalletToPay,
      newIdempotencyKey: () => crypto.randomUUID(),
    });
  }

  return { state, pay };
}
