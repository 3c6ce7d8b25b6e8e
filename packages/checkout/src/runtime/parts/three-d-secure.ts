// 3-D Secure, loaded on demand: the machine's part, and the verification of a card about to be handed over.
import { threeDSecurePart } from '../../machine/parts/three-d-secure.ts';
import type { PaymentMethodResult } from '../../machine/checkout.types.ts';
import type { PartHost, RuntimePart } from './part.ts';

/** Its outcome goes back to the machine, which judges it. */
function verify(card: PaymentMethodResult, host: PartHost): void {
  const { provider } = host;
  const { config, settings } = host.getState();
  const amount = host.requestedAmount ?? (settings.threeDSecure === false ? null : settings.threeDSecure.amount);
  // A malformed amount is the gateway's to refuse (its answer reaches the console).
  if (config === null || amount === null) {
    console.error(
      '[kassa/checkout] 3-D Secure needs the amount: options.threeDSecure or requestPaymentMethod({ threeDSecure }).',
    );
    host.send({ type: 'THREE_D_SECURE_FAILED' });
    return;
  }
  const abort = new AbortController();
  host.threeDSecureAbort = abort;
  const showChallenge = (url: string): void => {
    if (!abort.signal.aborted) host.send({ type: 'THREE_D_SECURE_CHALLENGE', url });
  };
  void provider.verifyThreeDSecure({ card, amount, config, showChallenge, signal: abort.signal }).then((outcome) => {
    if (host.threeDSecureAbort === abort) host.threeDSecureAbort = null;
    if (outcome.kind === 'failed') console.error(`[kassa/checkout] 3-D Secure failed: ${outcome.detail}`);
    if (outcome.kind === 'result') host.send({ type: 'THREE_D_SECURE_RESULT', result: outcome.result });
    else host.send({ type: outcome.kind === 'canceled' ? 'THREE_D_SECURE_CANCELED' : 'THREE_D_SECURE_FAILED' });
  });
}

export const threeDSecure: RuntimePart = {
  machine: threeDSecurePart,
  run: (effect, host) => {
    if (effect.type === 'verifyThreeDSecure') verify(effect.card, host);
    else if (effect.type === 'abortThreeDSecure') host.threeDSecureAbort?.abort();
  },
};
