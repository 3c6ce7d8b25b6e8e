// The state the checkout starts from, and what the views read of a state beside connect: the loading card form is
// drawn from these before the machine's transitions (and the runtime that runs them) have loaded (issue 10's split).
import type { CheckoutSettings, CheckoutState, FieldEntry, FieldMap } from './checkout.types.ts';
import { EMPTY_FIELD_STATE, predictedFields } from './field-rules.ts';

export function emptyFields(): FieldMap {
  const entry: FieldEntry = { state: EMPTY_FIELD_STATE, error: null };
  return { cardholderName: entry, number: entry, expirationDate: entry, cvv: entry, postalCode: entry };
}

/** More than one way to pay (or saved methods to go back to): the "Choose another way to pay" toggle is offered. */
export function hasOtherWays(state: CheckoutState): boolean {
  return state.savedMethods.length > 0 || state.options.length > 1;
}

export function initialState(settings: CheckoutSettings): CheckoutState {
  return {
    phase: 'loading',
    view: null,
    options: [],
    savedMethods: [],
    activeMethod: null,
    editing: false,
    pendingDelete: null,
    saveCard: true,
    settings,
    config: null,
    visibleFields: predictedFields(settings),
    fields: emptyFields(),
    framesReady: [],
    cards: [],
    pendingEmptyBlur: null,
    sheetError: null,
    loadError: null,
    selected: null,
    walletMethod: null,
    challengeUrl: null,
    requestability: { requestable: false },
  };
}
