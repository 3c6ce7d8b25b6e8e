// The saved methods, loaded on demand: the machine's part, and deleting a method.
import { savedMethodsPart } from '../../machine/parts/saved-methods.ts';
import type { PartHost, RuntimePart } from './part.ts';

/**
 * Deletes through the integrator's server when it takes deletions (onDeletePaymentMethod), else through the
 * provider; then lists again (the other nonces were single-use too). Any failure keeps the method listed.
 */
function deleteMethod(nonce: string, host: PartHost): void {
  const { provider } = host;
  const { config, savedMethods } = host.getState();
  if (config === null) return;
  const signal = new AbortController().signal;
  const throughServer = host.callbacks().onDeletePaymentMethod;
  const method = savedMethods.find((m) => m.nonce === nonce);
  Promise.resolve()
    .then(() =>
      throughServer !== undefined && method !== undefined ? throughServer(method) : provider.deletePaymentMethod(config, nonce),
    )
    .then(() => provider.listPaymentMethods(config, signal))
    .then(
      (methods) => host.send({ type: 'METHOD_DELETED', methods }),
      (error: unknown) => {
        console.error('[kassa/checkout] the saved payment method was not deleted', error);
        host.send({ type: 'DELETE_FAILED' });
      },
    );
}

export const savedMethods: RuntimePart = {
  machine: savedMethodsPart,
  run: (effect, host) => {
    if (effect.type === 'deleteMethod') deleteMethod(effect.nonce, host);
  },
};
