// The typing part of the view machine: what the frames' reports do once a card can be typed (a field's state and the
// integrator's events for it, a field's message shown or cleared, the brands the number names, an empty field's blur
// settling). Loaded on demand (issue 10: not in the card view's download): the runtime imports it as the first frame
// announces itself ready, and passes the frames' reports on once it is installed, in the order they came.
import { cardFieldEvents, withField } from '../checkout.machine.ts';
import type { CheckoutEvent, CheckoutState, Emit, MachinePart, TypingActionName } from '../checkout.types.ts';
import { fieldProblem, isFormValid } from '../field-rules.ts';

/** Focus, blur and input rules: when a field's message appears and when it goes away. */
function updateField(state: CheckoutState, event: CheckoutEvent, emit: Emit): CheckoutState {
  if (event.type !== 'FIELD_STATE') return state;
  const { field } = event;
  for (const name of cardFieldEvents(state.fields[field].state, event.state, event.event))
    emit({ type: 'cardFieldEvent', name, field });
  let next = withField(state, field, { state: event.state });
  const problem = fieldProblem(next, field);

  if (event.event === 'focus') {
    const left = next.pendingEmptyBlur;
    if (left !== null && left !== field) next = withField(next, left, { error: fieldProblem(next, left) });
    return { ...next, pendingEmptyBlur: null };
  }

  if (event.event === 'blur') {
    if (!event.state.isEmpty || problem === null) return withField(next, field, { error: problem });
    // An empty field complains only if the shopper moved on to another card field, not when they left the form.
    const movedToSibling = next.visibleFields.some((other) => other !== field && next.fields[other].state.isFocused);
    if (movedToSibling) return withField(next, field, { error: problem });
    emit({ type: 'scheduleBlurSettle', field });
    return { ...next, pendingEmptyBlur: field };
  }

  // Typing clears the message, except the one thing typing revealed: a complete number of an unsupported brand. A report
  // the shopper did not cause (`validate`: the CVV's length set by the number's brand) is not typing: a shown message
  // stays until the shopper changes the field, re-judged (it goes if the field is now acceptable), and none appears.
  const typed = event.event === 'input';
  const kept = typed ? problem === 'field.number.unsupported' : state.fields[field].error !== null;
  next = withField(next, field, { error: kept ? problem : null });
  if (typed && !event.state.isEmpty && next.selected !== null) next = { ...next, selected: null };
  if (isFormValid(next)) next = { ...next, sheetError: null };
  return next;
}

/** In every phase the frames live in once mounted (3-D Secure's `authenticating` too). */
const typing = {
  FIELD_STATE: [{ actions: ['updateField'] }],
  BLUR_SETTLED: [{ actions: ['forgetPendingBlur'] }],
  CARD_TYPE_CHANGED: [{ actions: ['setCards'] }],
} as const;

export const typingPart: MachinePart<never, TypingActionName> = {
  transitions: { mounting: typing, ready: typing, submitting: typing, authenticating: typing },
  guards: {},
  actions: {
    updateField,
    forgetPendingBlur: (state, event) =>
      event.type === 'BLUR_SETTLED' && state.pendingEmptyBlur === event.field ? { ...state, pendingEmptyBlur: null } : state,
    setCards: (state, event, emit) => {
      if (event.type !== 'CARD_TYPE_CHANGED') return state;
      emit({ type: 'cardFieldEvent', name: 'cardTypeChange', field: 'number' });
      const next = { ...state, cards: event.cards };
      // A brand change can turn a complete number unsupported (or supported again): re-judge a shown message.
      const shown = next.fields.number.error;
      const problem = fieldProblem(next, 'number');
      if (problem === 'field.number.unsupported' || shown === 'field.number.unsupported')
        return withField(next, 'number', { error: problem });
      return next;
    },
  },
};
