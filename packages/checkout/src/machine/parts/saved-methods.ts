// The saved methods' part of the view machine (list, choose, edit, delete, "Save card"): loaded on demand, only for a
// customer with saved methods or a checkout that offers to save the card (see MachinePart).
import { changeView, firstView, preselectedMethod } from '../checkout.machine.ts';
import type { CheckoutState, MachinePart, SavedMethodsActionName, SavedMethodsGuardName } from '../checkout.types.ts';

export const savedMethodsPart: MachinePart<SavedMethodsGuardName, SavedMethodsActionName> = {
  transitions: {
    ready: {
      // The chosen method (after 3-D Secure's part, installed first, verified it when on), unless in edit mode or none
      // is chosen.
      SUBMIT: [
        { guard: 'hasActiveMethod', actions: ['resolveActiveMethod'] },
        { guard: 'onMethodsView', actions: ['rejectNoPaymentMethod'] },
      ],
      SELECT_METHOD: [{ guard: 'choosingMethod', actions: ['selectMethod'] }],
      EDIT_METHODS: [{ guard: 'vaultManagerOn', actions: ['startEditing'] }],
      DONE_EDITING: [{ actions: ['stopEditing'] }],
      ASK_DELETE: [{ guard: 'methodDeletable', actions: ['askDelete'] }],
      CANCEL_DELETE: [{ actions: ['cancelDelete'] }],
      CONFIRM_DELETE: [{ guard: 'hasPendingDelete', target: 'submitting', actions: ['startDelete'] }],
      SET_SAVE_CARD: [{ actions: ['setSaveCard'] }],
    },
    submitting: {
      METHOD_DELETED: [{ target: 'ready', actions: ['applyDeleted'] }],
      DELETE_FAILED: [{ target: 'ready', actions: ['applyDeleteFailed'] }],
    },
  },
  guards: {
    onMethodsView: (state) => state.view === 'methods',
    choosingMethod: (state) => state.view === 'methods' && !state.editing,
    hasActiveMethod: (state) => state.view === 'methods' && !state.editing && state.activeMethod !== null,
    vaultManagerOn: (state) => state.settings.vaultManager && state.view === 'methods' && state.savedMethods.length > 0,
    // A method with a subscription is never deleted (the provider only greys it: we refuse it here and on the server).
    methodDeletable: (state, event) =>
      event.type === 'ASK_DELETE' &&
      state.editing &&
      state.savedMethods.some((m) => m.nonce === event.nonce && !m.hasSubscription),
    hasPendingDelete: (state) => state.view === 'delete-confirmation' && state.pendingDelete !== null,
  },
  actions: {
    selectMethod: (state, event) => {
      if (event.type !== 'SELECT_METHOD') return state;
      const method = state.savedMethods.find((m) => m.nonce === event.nonce);
      return method === undefined ? state : { ...state, activeMethod: method, sheetError: null };
    },
    resolveActiveMethod: (state, _, emit) => {
      if (state.activeMethod !== null) emit({ type: 'resolveRequest', result: state.activeMethod });
      return state;
    },
    // Edit / Done is one button whose text changes: focus stays on it.
    startEditing: (state) => ({ ...state, editing: true, sheetError: null }),
    stopEditing: (state) => (state.editing ? { ...state, editing: false, sheetError: null } : state),
    askDelete: (state, event, emit) => {
      if (event.type !== 'ASK_DELETE') return state;
      const pendingDelete = state.savedMethods.find((m) => m.nonce === event.nonce) ?? null;
      return changeView({ ...state, pendingDelete }, 'delete-confirmation', emit);
    },
    // Back to edit mode; focus returns to the method the shopper asked about (the view's focus target knows it).
    cancelDelete: (state, _, emit) => (state.view === 'delete-confirmation' ? changeView(state, 'methods', emit) : state),
    startDelete: (state, _, emit) => {
      if (state.pendingDelete !== null) emit({ type: 'deleteMethod', nonce: state.pendingDelete.nonce });
      return { ...state, sheetError: null };
    },
    applyDeleted: (state, event, emit) => {
      if (event.type !== 'METHOD_DELETED') return state;
      const stillActive = state.activeMethod !== null && event.methods.find((m) => m.nonce === state.activeMethod?.nonce);
      const next: CheckoutState = {
        ...state,
        savedMethods: event.methods,
        activeMethod:
          stillActive === undefined || stillActive === false ? preselectedMethod(event.methods, state.settings) : stillActive,
        pendingDelete: null,
        editing: false,
      };
      return changeView(next, event.methods.length > 0 ? 'methods' : (firstView(next) ?? 'options'), emit);
    },
    // The method stays listed; the shopper is back in edit mode with the message.
    applyDeleteFailed: (state, _, emit) => ({
      ...changeView(state, 'methods', emit),
      pendingDelete: null,
      editing: true,
      sheetError: 'error.deleteFailed',
    }),
    // A card tokenized for the other choice is tokenized again at the next Pay: its result says whether to save it (the
    // shop's page saves it first, and a refused save must not hold the card the shopper then pays without saving).
    setSaveCard: (state, event) =>
      event.type === 'SET_SAVE_CARD'
        ? {
            ...state,
            saveCard: event.save,
            selected: (state.selected?.vaultRequested === true) === event.save ? state.selected : null,
          }
        : state,
  },
};
