// Which parts a checkout can need, and their on-demand imports: a card-only checkout loads none.
import type { CheckoutSettings, GatewayConfiguration, PaymentMethodResult } from '../../machine/checkout.types.ts';
import { addEnglish } from '../../i18n/i18n.ts';
import type { PaymentOptionId } from '../../machine/payment-options.ts';
import type { RuntimePart } from './part.ts';
import type { PaymentPart } from './payment.ts';
import type { TypingPart } from './typing.ts';

export type PartName = 'savedMethods' | 'threeDSecure' | 'wallets' | 'otherWays';

const IMPORTS: Readonly<Record<PartName, () => Promise<RuntimePart>>> = {
  savedMethods: () => import('./saved-methods.ts').then((part) => part.savedMethods),
  threeDSecure: () => import('./three-d-secure.ts').then((part) => part.threeDSecure),
  wallets: () => import('./wallets.ts').then((part) => part.wallets),
  // The machine's alone: it asks the runtime for nothing.
  otherWays: () => import('../../machine/parts/other-ways.ts').then((part) => ({ machine: part.otherWaysPart })),
};

/**
 * The parts a loaded configuration calls for: 3-D Secure when the merchant option and the gateway both turn it on,
 * the wallets when one is offered, the saved methods when the customer has some or the card can be saved on the way,
 * and with either the other ways' (the list of ways to pay and the toggle back to it). In the order they are installed: 3-D Secure's transitions come before the saved methods' (a saved card chosen at
 * Pay is verified before it is handed over).
 */
export function partsNeeded(
  config: GatewayConfiguration,
  settings: CheckoutSettings,
  options: readonly PaymentOptionId[],
  savedMethods: readonly PaymentMethodResult[],
): readonly PartName[] {
  const needed: PartName[] = [];
  if (settings.threeDSecure !== false && config.threeDSecureEnabled) needed.push('threeDSecure');
  const wallets = options.some((option) => option !== 'card');
  const saved = savedMethods.length > 0 || settings.vaultCard;
  if (wallets) needed.push('wallets');
  if (saved) needed.push('savedMethods');
  if (wallets || saved) needed.push('otherWays');
  return needed;
}

/** The English sentences the parts show and the card view does not (catalogue-on-demand.ts), beside their parts. */
function loadEnglish(): Promise<void> {
  return import('../../i18n/catalogue-on-demand.ts').then((sentences) => addEnglish(sentences.enOnDemand));
}

/**
 * Imports the named parts and the English sentences they show; rejects when one cannot be loaded (the checkout then
 * fails to load: a reload loads it).
 */
export function loadParts(names: readonly PartName[]): Promise<readonly RuntimePart[]> {
  if (names.length === 0) return Promise.resolve([]);
  return Promise.all([Promise.all(names.map((name) => IMPORTS[name]())), loadEnglish()]).then(([parts]) => parts);
}

/**
 * The payment's part (a submit of the card form, its outcome, the frames' settling and the tokenization it asks for):
 * every checkout's, but not before a card can be typed, so not in the card view's download (issue 10). The runtime
 * imports it once the checkout is ready.
 */
export function loadPayment(): Promise<PaymentPart> {
  return Promise.all([import('./payment.ts'), loadEnglish()]).then(([part]) => part.payment);
}

/**
 * The typing part (what the frames' reports do: a field's state, its message, the number's brands) and the English
 * messages it shows: every checkout's, but not before a card can be typed (issue 10). The runtime imports it as the
 * first frame is ready.
 */
export function loadTyping(): Promise<TypingPart> {
  return Promise.all([import('./typing.ts'), loadEnglish()]).then(([part]) => part.typing);
}
