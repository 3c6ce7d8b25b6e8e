// The view machine with every part loaded, for tests that drive typing, the list of ways to pay, a payment, saved methods, 3-D Secure or wallets through the
// pure `transition` (the runtime loads these parts on demand; see MachinePart).
import { enOnDemand } from '../i18n/catalogue-on-demand.ts';
import { addEnglish } from '../i18n/i18n.ts';
import { transition, withParts } from '../machine/checkout.machine.ts';
import type {
  CheckoutEvent,
  CheckoutState,
  MachineRules,
  MachineStep,
  PaymentMethodType,
  Tell,
} from '../machine/checkout.types.ts';
import { otherWaysPart } from '../machine/parts/other-ways.ts';
import { paymentPart } from '../machine/parts/payment.ts';
import { savedMethodsPart } from '../machine/parts/saved-methods.ts';
import { threeDSecurePart } from '../machine/parts/three-d-secure.ts';
import { typingPart } from '../machine/parts/typing.ts';
import { walletsPart } from '../machine/parts/wallets.ts';

/** In the runtime's order (runtime/parts/load.ts): 3-D Secure before the saved methods, so a saved card is verified. */
export const ALL_PARTS: MachineRules = withParts(
  typingPart,
  threeDSecurePart,
  walletsPart,
  savedMethodsPart,
  otherWaysPart,
  paymentPart,
);

// And the English sentences they show, as the runtime's part loaders add them.
addEnglish(enOnDemand);

/** One step of the machine with every part loaded. */
export function step(state: CheckoutState, event: CheckoutEvent): MachineStep {
  return transition(state, event, ALL_PARTS);
}

/** The effect telling the integrator a payment method can be requested: a card unless `type` says otherwise. */
export function requestable(paymentMethodIsSelected: boolean, type: PaymentMethodType = 'CreditCard'): Tell {
  return { type: 'tell', event: 'paymentMethodRequestable', payload: { type, paymentMethodIsSelected } };
}

/** The effect telling the integrator no payment method can be requested now. */
export const NOT_REQUESTABLE: Tell = { type: 'tell', event: 'noPaymentMethodRequestable', payload: undefined };
