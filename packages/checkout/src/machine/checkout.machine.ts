// The checkout's view machine: a transition table over closed unions, named guards and actions, and a pure
// `transition(state, event)` that returns the next state plus the effects its host must run. No DOM, no network.
import {
  type ActionName,
  type CheckoutEffect,
  type CheckoutErrorInfo,
  type CheckoutEvent,
  type CheckoutSettings,
  type CheckoutState,
  type FieldEntry,
  type FieldMap,
  type FieldName,
  type GuardName,
  type MachineStep,
  type Requestability,
  type TokenizeFailure,
  type TransitionTable,
} from './checkout.types.ts';
import { EMPTY_FIELD_STATE, fieldProblem, isFieldRequired, isFormValid, visibleFieldsFor } from './field-rules.ts';

const fieldEditing = {
  FIELD_STATE: [{ actions: ['updateField'] }],
  BLUR_SETTLED: [{ actions: ['forgetPendingBlur'] }],
  CARD_TYPE_CHANGED: [{ actions: ['setCards'] }],
} as const;

export const transitions: TransitionTable = {
  loading: {
    CONFIG_LOADED: [
      { guard: 'hasCardOption', target: 'mounting', actions: ['storeConfig'] },
      { target: 'error', actions: ['setNoOptionsError', 'reportLoadError'] },
    ],
    CONFIG_FAILED: [{ target: 'error', actions: ['setLoadError', 'reportLoadError'] }],
    SUBMIT: [{ actions: ['rejectNotReady'] }],
  },
  mounting: {
    ...fieldEditing,
    FRAMES_READY: [{ target: 'ready', actions: ['announceReady'] }],
    FRAMES_FAILED: [{ target: 'error', actions: ['setLoadError', 'reportLoadError'] }],
    SUBMIT: [{ actions: ['rejectNotReady'] }],
  },
  ready: {
    ...fieldEditing,
    SUBMIT: [
      { guard: 'hasSelection', actions: ['resolveSelected'] },
      { guard: 'formValid', target: 'submitting', actions: ['startTokenize'] },
      { actions: ['showAllErrors', 'rejectInvalid'] },
    ],
    CLEAR_SELECTION: [{ actions: ['clearSelection'] }],
  },
  submitting: {
    ...fieldEditing,
    SUBMIT: [{ actions: ['rejectBusy'] }],
    TOKENIZED: [{ target: 'ready', actions: ['selectResult', 'resolveRequest'] }],
    TOKENIZE_FAILED: [{ target: 'ready', actions: ['applyTokenizeFailure'] }],
  },
  error: {
    RETRY: [{ guard: 'isRetriable', target: 'loading', actions: ['clearLoadError', 'loadConfiguration'] }],
    SUBMIT: [{ actions: ['rejectNotReady'] }],
  },
};

type Guard = (state: CheckoutState, event: CheckoutEvent) => boolean;
type Emit = (effect: CheckoutEffect) => void;
type Action = (state: CheckoutState, event: CheckoutEvent, emit: Emit) => CheckoutState;

const guards: Record<GuardName, Guard> = {
  hasCardOption: (_, event) => event.type === 'CONFIG_LOADED' && event.config.creditCards.supportedCardTypes.length > 0,
  hasSelection: (state) => state.selected !== null,
  formValid: (state) => isFormValid(state),
  isRetriable: (state) => state.loadError?.retriable === true,
};

function emptyFields(): FieldMap {
  const entry: FieldEntry = { state: EMPTY_FIELD_STATE, error: null };
  return { cardholderName: entry, number: entry, expirationDate: entry, cvv: entry, postalCode: entry };
}

function withField(state: CheckoutState, field: FieldName, entry: Partial<FieldEntry>): CheckoutState {
  return { ...state, fields: { ...state.fields, [field]: { ...state.fields[field], ...entry } } };
}

/** Empties the fields in the machine and asks the host to empty the frames. */
function resetFields(state: CheckoutState, emit: Emit): CheckoutState {
  emit({ type: 'clearFields' });
  return { ...state, fields: emptyFields(), cards: [], pendingEmptyBlur: null };
}

const NOT_READY: CheckoutErrorInfo = { code: 'not_ready', messageKey: 'error.notReady', retriable: true };
const BUSY: CheckoutErrorInfo = { code: 'request_in_progress', messageKey: 'error.requestInProgress', retriable: true };
const INVALID: CheckoutErrorInfo = { code: 'invalid_fields', messageKey: 'error.checkEntries', retriable: true };
const NO_OPTIONS: CheckoutErrorInfo = { code: 'no_payment_options', messageKey: 'error.noPaymentOptions', retriable: false };

/** Maps a frame's tokenization failure to the stable code and catalogue message shown on the sheet. */
export function tokenizeFailureInfo(failure: TokenizeFailure): CheckoutErrorInfo {
  switch (failure.code) {
    case 'invalid_fields':
      return { code: 'invalid_fields', messageKey: 'error.cardInvalid', retriable: true };
    case 'unsupported_card_type':
      return { code: 'unsupported_card_type', messageKey: 'error.unsupportedCardType', retriable: true };
    case 'network':
      return { code: 'network', messageKey: 'error.network', retriable: true };
    case 'authorization':
      return { code: 'authorization', messageKey: 'error.sessionExpired', retriable: false };
    default:
      return { code: 'gateway', messageKey: 'error.gateway', retriable: true };
  }
}

/** Focus, blur and input rules: when a field's message appears and when it goes away. */
function updateField(state: CheckoutState, event: CheckoutEvent, emit: Emit): CheckoutState {
  if (event.type !== 'FIELD_STATE') return state;
  const { field } = event;
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

  // Typing clears the message, except the one thing typing revealed: a complete number of an unsupported brand.
  next = withField(next, field, { error: problem === 'field.number.unsupported' ? problem : null });
  if (!event.state.isEmpty && next.selected !== null) next = { ...next, selected: null };
  if (isFormValid(next)) next = { ...next, sheetError: null };
  return next;
}

const actions: Record<ActionName, Action> = {
  storeConfig: (state, event) => {
    if (event.type !== 'CONFIG_LOADED') return state;
    return {
      ...state,
      config: event.config,
      view: 'card',
      visibleFields: visibleFieldsFor(event.config, state.settings),
      fields: emptyFields(),
      cards: [],
    };
  },
  setNoOptionsError: (state) => ({ ...state, loadError: NO_OPTIONS, view: null }),
  setLoadError: (state, event) =>
    event.type === 'CONFIG_FAILED' || event.type === 'FRAMES_FAILED' ? { ...state, loadError: event.error, view: null } : state,
  reportLoadError: (state, _, emit) => {
    if (state.loadError !== null) emit({ type: 'reportLoadError', error: state.loadError });
    return state;
  },
  announceReady: (state, _, emit) => {
    emit({ type: 'announceReady' });
    return state;
  },
  clearLoadError: (state) => ({ ...state, loadError: null, config: null, view: null, visibleFields: [] }),
  loadConfiguration: (state, _, emit) => {
    emit({ type: 'loadConfiguration' });
    return state;
  },
  updateField,
  forgetPendingBlur: (state, event) =>
    event.type === 'BLUR_SETTLED' && state.pendingEmptyBlur === event.field ? { ...state, pendingEmptyBlur: null } : state,
  setCards: (state, event) => {
    if (event.type !== 'CARD_TYPE_CHANGED') return state;
    const next = { ...state, cards: event.cards };
    // A brand change can turn a complete number unsupported (or supported again): re-judge a shown message.
    const shown = next.fields.number.error;
    const problem = fieldProblem(next, 'number');
    if (problem === 'field.number.unsupported' || shown === 'field.number.unsupported') return withField(next, 'number', { error: problem });
    return next;
  },
  resolveSelected: (state, _, emit) => {
    if (state.selected !== null) emit({ type: 'resolveRequest', result: state.selected });
    return state;
  },
  startTokenize: (state, _, emit) => {
    // Optional fields left empty are not sent: an empty cardholder name is "no name", not an invalid one.
    const fields = state.visibleFields.filter((f) => isFieldRequired(f, state.settings) || !state.fields[f].state.isEmpty);
    emit({ type: 'tokenize', fields });
    return { ...state, sheetError: null };
  },
  showAllErrors: (state) => {
    let next: CheckoutState = { ...state, pendingEmptyBlur: null, sheetError: 'error.checkEntries' };
    for (const field of state.visibleFields) next = withField(next, field, { error: fieldProblem(next, field) });
    return next;
  },
  rejectInvalid: (state, _, emit) => {
    emit({ type: 'rejectRequest', error: INVALID });
    return state;
  },
  rejectNotReady: (state, _, emit) => {
    emit({ type: 'rejectRequest', error: NOT_READY });
    return state;
  },
  rejectBusy: (state, _, emit) => {
    emit({ type: 'rejectRequest', error: BUSY });
    return state;
  },
  selectResult: (state, event, emit) => {
    if (event.type !== 'TOKENIZED') return state;
    const next = { ...state, selected: event.result, sheetError: null };
    return state.settings.clearFieldsAfterTokenization ? resetFields(next, emit) : next;
  },
  resolveRequest: (state, event, emit) => {
    if (event.type === 'TOKENIZED') emit({ type: 'resolveRequest', result: event.result });
    return state;
  },
  applyTokenizeFailure: (state, event, emit) => {
    if (event.type !== 'TOKENIZE_FAILED') return state;
    const info = tokenizeFailureInfo(event.failure);
    let next: CheckoutState = { ...state, sheetError: info.messageKey };
    if (info.code === 'unsupported_card_type') next = withField(next, 'number', { error: 'field.number.unsupported' });
    if (info.code === 'invalid_fields') {
      for (const field of event.failure.fields ?? []) {
        if (next.visibleFields.includes(field)) next = withField(next, field, { error: `field.${field}.invalid` });
      }
    }
    emit({ type: 'rejectRequest', error: info });
    return next;
  },
  clearSelection: (state, _, emit) => resetFields({ ...state, selected: null, sheetError: null }, emit),
};

function requestabilityOf(state: CheckoutState): Requestability {
  if (state.selected !== null) return { requestable: true, paymentMethodIsSelected: true };
  if ((state.phase === 'ready' || state.phase === 'submitting') && isFormValid(state)) {
    return { requestable: true, paymentMethodIsSelected: false };
  }
  return { requestable: false };
}

function sameRequestability(a: Requestability, b: Requestability): boolean {
  if (!a.requestable || !b.requestable) return a.requestable === b.requestable;
  return a.paymentMethodIsSelected === b.paymentMethodIsSelected;
}

export function initialState(settings: CheckoutSettings): CheckoutState {
  return {
    phase: 'loading',
    view: null,
    settings,
    config: null,
    visibleFields: [],
    fields: emptyFields(),
    cards: [],
    pendingEmptyBlur: null,
    sheetError: null,
    loadError: null,
    selected: null,
    requestability: { requestable: false },
  };
}

/** One step: pick the first transition whose guard passes, run its actions in order, then derive requestability. */
export function transition(state: CheckoutState, event: CheckoutEvent): MachineStep {
  const candidates = transitions[state.phase][event.type] ?? [];
  const chosen = candidates.find((t) => t.guard === undefined || guards[t.guard](state, event));
  if (chosen === undefined) return { state, effects: [] };

  const effects: CheckoutEffect[] = [];
  const emit: Emit = (effect) => effects.push(effect);
  let next: CheckoutState = { ...state, phase: chosen.target ?? state.phase };
  for (const name of chosen.actions) next = actions[name](next, event, emit);

  // Requestable events fire only on change (integrators found the provider's repeated events confusing).
  const requestability = requestabilityOf(next);
  if (!sameRequestability(requestability, state.requestability)) {
    emit(
      requestability.requestable
        ? { type: 'paymentMethodRequestable', paymentMethodIsSelected: requestability.paymentMethodIsSelected }
        : { type: 'noPaymentMethodRequestable' },
    );
    next = { ...next, requestability };
  }
  return { state: next, effects };
}

export interface CheckoutMachine {
  getState(): CheckoutState;
  /** Applies the event, notifies subscribers if the state changed, and returns the effects to run. */
  send(event: CheckoutEvent): readonly CheckoutEffect[];
  subscribe(listener: () => void): () => void;
}

/** A tiny holder around `transition` for hosts that need a current state and change notifications. */
export function createCheckoutMachine(settings: CheckoutSettings): CheckoutMachine {
  let state = initialState(settings);
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    send(event) {
      const step = transition(state, event);
      if (step.state !== state) {
        state = step.state;
        for (const listener of [...listeners]) listener();
      }
      return step.effects;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

