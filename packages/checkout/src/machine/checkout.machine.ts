// The checkout's view machine: a transition table over closed unions, named guards and actions, and a pure
// `transition(state, event)` that returns the next state plus the effects its host must run. No DOM, no network.
import type {
  Action,
  CardFieldEventName,
  CheckoutEffect,
  CheckoutErrorInfo,
  CheckoutEvent,
  CheckoutSettings,
  CheckoutState,
  CoreActionName,
  CoreGuardName,
  Emit,
  FieldEntry,
  FieldMap,
  FieldName,
  FieldReport,
  FieldState,
  Guard,
  MachinePart,
  MachineRules,
  MachineStep,
  OptionEntry,
  PaymentMethodResult,
  Requestability,
  SomeMachinePart,
  Transition,
  TransitionTable,
  ViewId,
} from './checkout.types.ts';
import { EMPTY_FIELD_STATE, isFormValid, predictedFields, visibleFieldsFor } from './field-rules.ts';

/**
 * The frames' readiness, the one record of it: the fields' frames mounted (again, after a load error's Try again: new
 * frames, none ready yet), and each frame ready. In every phase the frames live in.
 */
export const frameLoading = {
  FIELDS_MOUNTED: [{ actions: ['trackFrames'] }],
  FRAME_READY: [{ actions: ['trackFrames'] }],
} as const;

export const closing = { TEARDOWN: [{ target: 'closed', actions: ['close'] }] } as const;

/**
 * The last option to finish initialising decides: all failed is a load error, otherwise the checkout is ready on the
 * first view (chosen when the configuration came: the card form is drawn under the loading overlay while it mounts).
 */
const optionSettling = {
  OPTION_READY: [
    { guard: 'lastOptionSettles', target: 'ready', actions: ['markOption', 'announceReady'] },
    { actions: ['markOption'] },
  ],
  OPTION_FAILED: [
    { guard: 'allOptionsFailed', target: 'error', actions: ['markOption', 'setAllOptionsFailed', 'reportLoadError'] },
    { guard: 'lastOptionSettles', target: 'ready', actions: ['markOption', 'announceReady'] },
    { actions: ['markOption'] },
  ],
} as const;

/**
 * Code the checkout needs did not download (the runtime's NOT_DOWNLOADED): the payment's part at a submit, a view
 * imported on demand (from the first view's, drawn while the card mounts): nothing can be paid before a reload.
 */
const notDownloaded = { CONFIG_FAILED: [{ target: 'error', actions: ['setLoadError', 'reportLoadError'] }] } as const;

/**
 * The card view's transitions; the parts add theirs (MachinePart): choosing another way to pay, and the toggle back to
 * the list, are the other ways' part's.
 */
const coreTransitions: TransitionTable = {
  loading: {
    ...closing,
    ...frameLoading,
    CONFIG_LOADED: [
      { guard: 'hasOptions', target: 'mounting', actions: ['storeConfig'] },
      { target: 'error', actions: ['setNoOptionsError', 'reportLoadError'] },
    ],
    // A 429 says when to come back: the checkout tries again by itself then, once the shopper can read why.
    CONFIG_FAILED: [
      { guard: 'isRateLimited', target: 'error', actions: ['setLoadError', 'scheduleRetry'] },
      { target: 'error', actions: ['setLoadError', 'reportLoadError'] },
    ],
  },
  // Typing, focus and brand changes (mounting, ready, submitting, authenticating) are the typing part's.
  mounting: {
    ...closing,
    ...frameLoading,
    ...optionSettling,
    ...notDownloaded,
  },
  ready: {
    ...closing,
    ...frameLoading,
    CLEAR_SELECTION: [{ actions: ['clearSelection'] }],
    UPDATE_SETTINGS: [{ actions: ['updateSettings'] }],
    ...notDownloaded,
  },
  submitting: {
    ...closing,
    ...frameLoading,
    UPDATE_SETTINGS: [{ actions: ['updateSettings'] }],
  },
  // 3-D Secure's part adds `authenticating`.
  authenticating: {},
  error: {
    ...closing,
    ...frameLoading,
    RETRY: [{ guard: 'isRetriable', target: 'loading', actions: ['clearLoadError', 'loadConfiguration'] }],
  },
  closed: {},
};

/** The option list after an OPTION_READY / OPTION_FAILED event. */
function optionsAfter(state: CheckoutState, event: CheckoutEvent): readonly OptionEntry[] {
  if (event.type !== 'OPTION_READY' && event.type !== 'OPTION_FAILED') return state.options;
  const status = event.type === 'OPTION_READY' ? 'ready' : 'failed';
  return state.options.map((entry) => (entry.id === event.option ? { ...entry, status } : entry));
}

const coreGuards: Record<CoreGuardName, Guard> = {
  hasOptions: (_, event) => event.type === 'CONFIG_LOADED' && event.options.length > 0,
  isRateLimited: (_, event) => event.type === 'CONFIG_FAILED' && event.error.retryAfterMs !== undefined,
  lastOptionSettles: (state, event) => optionsAfter(state, event).every((entry) => entry.status !== 'loading'),
  allOptionsFailed: (state, event) => optionsAfter(state, event).every((entry) => entry.status === 'failed'),
  isRetriable: (state) => state.loadError?.retriable === true,
};

export function emptyFields(): FieldMap {
  const entry: FieldEntry = { state: EMPTY_FIELD_STATE, error: null };
  return { cardholderName: entry, number: entry, expirationDate: entry, cvv: entry, postalCode: entry };
}

export function withField(state: CheckoutState, field: FieldName, entry: Partial<FieldEntry>): CheckoutState {
  return { ...state, fields: { ...state.fields, [field]: { ...state.fields[field], ...entry } } };
}

/**
 * Empties the fields in the machine and asks the host to empty the frames. Each field that held something reports
 * `empty` (and its validity change), as the provider's hosted fields do when cleared; the frames' own reports of the
 * emptied inputs then change nothing.
 */
export function resetFields(state: CheckoutState, emit: Emit): CheckoutState {
  for (const field of state.visibleFields)
    for (const name of cardFieldEvents(state.fields[field].state, EMPTY_FIELD_STATE, 'input'))
      emit({ type: 'cardFieldEvent', name, field });
  emit({ type: 'clearFields' });
  return { ...state, fields: emptyFields(), cards: [], pendingEmptyBlur: null };
}

const ALL_FAILED: CheckoutErrorInfo = { code: 'all_options_failed', messageKey: 'error.allOptionsFailed', retriable: true };
const NO_OPTIONS: CheckoutErrorInfo = { code: 'no_payment_options', messageKey: 'error.noPaymentOptions', retriable: false };

/** More than one way to pay (or saved methods to go back to): the "Choose another way to pay" toggle is offered. */
export function hasOtherWays(state: CheckoutState): boolean {
  return state.savedMethods.length > 0 || state.options.length > 1;
}

/**
 * The first view (checkout-behaviour.md "First view"): saved methods first; a single option opens directly;
 * otherwise the option list. A failed single option leaves nothing to open.
 */
export function firstView(state: CheckoutState): ViewId | null {
  if (state.savedMethods.length > 0) return 'methods';
  const [only, ...others] = state.options;
  if (only === undefined) return null;
  if (others.length === 0) return only.status === 'failed' ? null : only.id;
  return 'options';
}

/** The method the saved list opens with: the default (or the first), when the merchant preselects. */
export function preselectedMethod(
  methods: readonly PaymentMethodResult[],
  settings: CheckoutSettings,
): PaymentMethodResult | null {
  if (!settings.preselectVaultedPaymentMethod) return null;
  return methods.find((m) => m.default === true) ?? methods[0] ?? null;
}

/** Every view change: the events, the sheet error cleared, focus to the new view's first control. */
export function changeView(state: CheckoutState, to: ViewId, emit: Emit): CheckoutState {
  if (state.view === to) return state;
  if (state.view !== null)
    emit({ type: 'tell', event: 'changeActiveView', payload: { previousViewId: state.view, newViewId: to } });
  emit({ type: 'focusView', view: to });
  return { ...state, view: to, sheetError: null, walletMethod: null };
}

/** The hosted-field events the drop-in passes on: focus/blur, empty/notEmpty and validity changes. */
export function cardFieldEvents(before: FieldState, after: FieldState, event: FieldReport): readonly CardFieldEventName[] {
  const names: CardFieldEventName[] = [];
  if (event === 'focus' || event === 'blur') names.push(event);
  if (before.isEmpty !== after.isEmpty) names.push(after.isEmpty ? 'empty' : 'notEmpty');
  if (before.isValid !== after.isValid || before.isPotentiallyValid !== after.isPotentiallyValid) names.push('validityChange');
  return names;
}

const coreActions: Record<CoreActionName, Action> = {
  storeConfig: (state, event) => {
    if (event.type !== 'CONFIG_LOADED') return state;
    const next: CheckoutState = {
      ...state,
      config: event.config,
      options: event.options.map((id) => ({ id, status: 'loading' })),
      visibleFields: visibleFieldsFor(event.config, state.settings),
      fields: emptyFields(),
      cards: [],
      savedMethods: event.savedMethods ?? state.savedMethods,
      activeMethod: preselectedMethod(event.savedMethods ?? state.savedMethods, state.settings),
    };
    return { ...next, view: firstView(next) };
  },
  setNoOptionsError: (state) => ({ ...state, loadError: NO_OPTIONS, view: null }),
  setLoadError: (state, event) => (event.type === 'CONFIG_FAILED' ? { ...state, loadError: event.error, view: null } : state),
  setAllOptionsFailed: (state) => ({ ...state, loadError: ALL_FAILED, view: null }),
  scheduleRetry: (state, _, emit) => {
    const afterMs = state.loadError?.retryAfterMs;
    if (afterMs !== undefined) emit({ type: 'scheduleRetry', afterMs });
    return state;
  },
  markOption: (state, event) => ({ ...state, options: optionsAfter(state, event) }),
  updateSettings: (state, event) =>
    event.type === 'UPDATE_SETTINGS' ? { ...state, settings: { ...state.settings, ...event.settings } } : state,
  close: (state) => ({ ...state, view: null, sheetError: null, selected: null, challengeUrl: null }),
  reportLoadError: (state, _, emit) => {
    if (state.loadError !== null) emit({ type: 'reportLoadError', error: state.loadError });
    return state;
  },
  announceReady: (state, _, emit) => {
    emit({ type: 'announceReady' });
    return state;
  },
  clearLoadError: (state) => ({
    ...state,
    loadError: null,
    config: null,
    view: null,
    options: [],
    visibleFields: predictedFields(state.settings),
  }),
  loadConfiguration: (state, _, emit) => {
    emit({ type: 'loadConfiguration' });
    return state;
  },
  trackFrames: (state, event) => ({
    ...state,
    framesReady: event.type === 'FRAME_READY' ? [...state.framesReady, event.field] : [],
  }),
  clearSelection: (state, _, emit) =>
    resetFields({ ...state, selected: null, activeMethod: null, walletMethod: null, sheetError: null }, emit),
};

function requestabilityOf(state: CheckoutState): Requestability {
  if (state.phase === 'closed') return { requestable: false };
  if (state.view === 'methods') {
    return !state.editing && state.activeMethod !== null
      ? { requestable: true, paymentMethodIsSelected: true }
      : { requestable: false };
  }
  if (state.walletMethod !== null) return { requestable: true, paymentMethodIsSelected: true };
  if (state.view !== 'card') return { requestable: false };
  if (state.selected !== null) return { requestable: true, paymentMethodIsSelected: true };
  if ((state.phase === 'ready' || state.phase === 'submitting' || state.phase === 'authenticating') && isFormValid(state)) {
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

/** The card view's transitions, guards and actions: what every checkout starts with. */
export const CORE: MachineRules & MachinePart<CoreGuardName, CoreActionName> = {
  transitions: coreTransitions,
  guards: coreGuards,
  actions: coreActions,
};

/**
 * The core's rules with these parts added, each once: for a phase and event, each part's transitions after those of
 * the parts before it, those of a part that comes `last` (the payment's: what a submit does with the card form, once
 * no other part took it) after every other part's, whenever it was installed, and the core's after them all.
 */
export function withParts(...parts: readonly SomeMachinePart[]): MachineRules {
  const ordered = [...new Set(parts)].sort((a, b) => Number(a.last === true) - Number(b.last === true));
  const table: Record<string, Record<string, readonly Transition[]>> = {};
  for (const part of [...ordered, CORE])
    for (const [phase, events] of Object.entries(part.transitions ?? {})) {
      const merged = (table[phase] ??= {});
      for (const [type, added = []] of Object.entries(events)) merged[type] = [...(merged[type] ?? []), ...added];
    }
  const rules = [CORE, ...ordered];
  return {
    transitions: table as TransitionTable,
    guards: Object.assign({}, ...rules.map((part) => part.guards)),
    actions: Object.assign({}, ...rules.map((part) => part.actions)),
  };
}

/**
 * One step: pick the first transition of these rules (the core unless parts were added) whose guard passes, run its
 * actions in order, then derive requestability.
 */
export function transition(state: CheckoutState, event: CheckoutEvent, rules: MachineRules = CORE): MachineStep {
  const candidates = rules.transitions[state.phase][event.type] ?? [];
  const chosen = candidates.find(({ guard }) => guard === undefined || rules.guards[guard]?.(state, event) === true);
  if (chosen === undefined) return { state, effects: [] };

  const effects: CheckoutEffect[] = [];
  const emit: Emit = (effect) => effects.push(effect);
  let next: CheckoutState = { ...state, phase: chosen.target ?? state.phase };
  for (const name of chosen.actions) next = rules.actions[name]?.(next, event, emit) ?? next;

  // Requestable events fire only on change (integrators found the provider's repeated events confusing).
  const requestability = requestabilityOf(next);
  if (!sameRequestability(requestability, state.requestability)) {
    emit(
      requestability.requestable
        ? {
            type: 'tell',
            event: 'paymentMethodRequestable',
            payload: {
              // A wallet's approved method on its view, the chosen saved method (a saved wallet's own type); else a card.
              type: next.walletMethod?.type ?? (next.view === 'methods' ? next.activeMethod?.type : undefined) ?? 'CreditCard',
              paymentMethodIsSelected: requestability.paymentMethodIsSelected,
            },
          }
        : { type: 'tell', event: 'noPaymentMethodRequestable', payload: undefined },
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
  /** Adds a part's guards and actions (loaded on demand) to this machine's rules. */
  install(part: SomeMachinePart): void;
}

/** A tiny holder around `transition` for hosts that need a current state and change notifications. */
export function createCheckoutMachine(settings: CheckoutSettings): CheckoutMachine {
  let state = initialState(settings);
  let rules: MachineRules = CORE;
  const parts: SomeMachinePart[] = [];
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    send(event) {
      const step = transition(state, event, rules);
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
    install(part) {
      parts.push(part);
      rules = withParts(...parts);
    },
  };
}
