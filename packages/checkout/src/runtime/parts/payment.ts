// The payment, loaded once the checkout is ready (load.ts: loadPayment): the machine's part (a submit and its outcome)
// and the work it asks for, the frames' settling before a card is judged and the card's tokenization.
import { paymentPart } from '../../machine/parts/payment.ts';
import type { RuntimePart } from './part.ts';

export const payment: RuntimePart = {
  machine: paymentPart,
  run: (effect, host) => {
    const fields = host.fields();
    const { config, visibleFields } = host.getState();
    if (effect.type === 'settleFields') {
      void Promise.resolve(fields?.settle(visibleFields)).then(() => host.send({ type: 'FIELDS_SETTLED' }));
    } else if (effect.type === 'tokenize') {
      if (fields === null || config === null) {
        host.send({ type: 'TOKENIZE_FAILED', failure: { code: 'gateway', message: 'The card fields are not mounted.' } });
        return;
      }
      void host.provider.tokenize(fields, config, effect.fields, effect.vault).then((outcome) => {
        host.send(
          outcome.ok ? { type: 'TOKENIZED', result: outcome.result } : { type: 'TOKENIZE_FAILED', failure: outcome.error },
        );
      });
    }
  },
};
