// The payment's part of the view machine: what a submit of the card form does (tokenize, or judge the form once the
// frames' last reports are in) and what its outcome does (the card selected and handed over, or the failure shown).
// Loaded on demand (issue 10: not in the card view's download): the runtime starts its import once the checkout is
// ready and installs it before it passes a submit to the machine, so a submit's transitions in every phase are here.
// They come after every other part's (`last`): whatever another part does not take of a submit is the card form's.
import { changeView, resetFields, withField } from '../checkout.machine.ts';
import {
  NOT_DOWNLOADED,
  type CheckoutErrorInfo,
  type CheckoutEvent,
  type CheckoutState,
  type MachinePart,
  type PaymentActionName,
  type PaymentGuardName,
  type PaymentMethodResult,
  type TokenizeFailure,
} from '../checkout.types.ts';
import { fieldProblem, isFieldRequired, isFormValid } from '../field-rules.ts';

/** The card an event hands over (the one 3-D Secure must verify first): tokenized, verified, or the chosen saved one. */
export function deliveredCard(state: CheckoutState, event: CheckoutEvent): PaymentMethodResult | null {
  if (event.type === 'TOKENIZED' || event.type === 'THREE_D_SECURE_RESULT') return event.result;
  return event.type === 'SUBMIT' && state.view === 'methods' && !state.editing ? state.activeMethod : null;
}

/** Maps a frame's tokenization failure to the stable code and catalogue message shown on the sheet. */
function tokenizeFailureInfo(failure: TokenizeFailure): CheckoutErrorInfo {
  switch (failure.code) {
    case 'invalid_fields':
      return { code: 'invalid_fields', messageKey: 'error.cardInvalid', retriable: true };
    case 'unsupported_card_type':
      return { code: 'unsupported_card_type', messageKey: 'error.unsupportedCardType', retriable: true };
    case 'verification_failed':
      return { code: 'invalid_fields', messageKey: 'error.cardVerificationFailed', retriable: true };
    case 'duplicate_card':
    case 'duplicate_payment_method':
      return { code: 'duplicate_payment_method', messageKey: 'error.cardAlreadySaved', retriable: false };
    case 'network':
      return { code: 'network', messageKey: 'error.network', retriable: true };
    case 'timeout':
      return { code: 'timeout', messageKey: 'error.timeout', retriable: true };
    case 'rate_limited':
      return {
        code: 'rate_limited',
        messageKey: 'error.rateLimited',
        retriable: true,
        ...(failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}),
      };
    case 'authorization':
      return { code: 'authorization', messageKey: 'error.sessionExpired', retriable: false };
    case 'forbidden':
      return { code: 'insufficient_privileges', messageKey: 'error.insufficientPrivileges', retriable: false };
    case 'not_downloaded':
      return NOT_DOWNLOADED;
    default:
      return { code: 'gateway', messageKey: 'error.gateway', retriable: true };
  }
}

const INVALID: CheckoutErrorInfo = { code: 'invalid_fields', messageKey: 'error.checkEntries', retriable: true };
const NO_METHOD: CheckoutErrorInfo = { code: 'no_payment_method', messageKey: 'error.choosePaymentOption', retriable: true };
const NOT_READY: CheckoutErrorInfo = { code: 'not_ready', messageKey: 'error.notReady', retriable: true };
const BUSY: CheckoutErrorInfo = { code: 'request_in_progress', messageKey: 'error.requestInProgress', retriable: true };

const notReady = { SUBMIT: [{ actions: ['rejectNotReady'] }] } as const;

export const paymentPart: MachinePart<PaymentGuardName, PaymentActionName> = {
  last: true,
  transitions: {
    loading: notReady,
    mounting: notReady,
    ready: {
      SUBMIT: [
        { guard: 'onOptionsView', actions: ['rejectNoPaymentMethod'] },
        { guard: 'hasSelection', actions: ['resolveSelected'] },
        { guard: 'formValid', target: 'submitting', actions: ['startTokenize'] },
        // Incomplete as far as the checkout has heard: judged once the frames' reports sent before the submit are in.
        { target: 'submitting', actions: ['settleFields'] },
      ],
    },
    submitting: {
      SUBMIT: [{ actions: ['rejectBusy'] }],
      FIELDS_SETTLED: [
        { guard: 'formValid', actions: ['startTokenize'] },
        { target: 'ready', actions: ['showAllErrors', 'focusFirstInvalid', 'rejectInvalid'] },
      ],
      TOKENIZED: [{ target: 'ready', actions: ['selectResult', 'resolveRequest'] }],
      TOKENIZE_FAILED: [{ target: 'ready', actions: ['applyTokenizeFailure'] }],
    },
    error: notReady,
    // None for `closed`: no submit reaches a closed checkout. Only the runtime's destroy() closes it, and from then on
    // the runtime sends the machine nothing; a request then is refused before any submit (runtime/parts/payment.ts).
  },
  guards: {
    onOptionsView: (state) => state.view === 'options',
    hasSelection: (state) => state.selected !== null,
    formValid: (state) => isFormValid(state),
  },
  actions: {
    rejectNotReady: (state, _, emit) => {
      emit({ type: 'rejectRequest', error: NOT_READY });
      return state;
    },
    rejectBusy: (state, _, emit) => {
      emit({ type: 'rejectRequest', error: BUSY });
      return state;
    },
    rejectNoPaymentMethod: (state, _, emit) => {
      emit({ type: 'rejectRequest', error: NO_METHOD });
      return { ...state, sheetError: NO_METHOD.messageKey };
    },
    resolveSelected: (state, _, emit) => {
      if (state.selected !== null) emit({ type: 'resolveRequest', result: state.selected });
      return state;
    },
    focusFirstInvalid: (state, _, emit) => {
      const field = state.visibleFields.find((f) => state.fields[f].error !== null);
      if (field !== undefined) emit({ type: 'focusField', field });
      return state;
    },
    startTokenize: (state, _, emit) => {
      // Optional fields left empty are not sent: an empty cardholder name is "no name", not an invalid one.
      const fields = state.visibleFields.filter((f) => isFieldRequired(f, state.settings) || !state.fields[f].state.isEmpty);
      emit({ type: 'tokenize', fields, vault: state.settings.vaultCard && state.saveCard });
      return { ...state, sheetError: null };
    },
    settleFields: (state, _, emit) => {
      emit({ type: 'settleFields' });
      // What the frames reported before the sync may be out of date: a frame waiting for its card rules reports an empty
      // field's focus and blur at once and holds back what is typed after. The sync's outcome judges the card
      // (FIELDS_SETTLED shows every message then), so nothing from before is shown under the busy sheet: no message,
      // and no field drawn focused (the form is inert while paying; the blurs held back come with the rules).
      let next: CheckoutState = { ...state, pendingEmptyBlur: null };
      for (const field of state.visibleFields)
        next = withField(next, field, { error: null, state: { ...state.fields[field].state, isFocused: false } });
      return next;
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
    selectResult: (state, event, emit) => {
      const result = deliveredCard(state, event);
      if (result === null) return state;
      if (state.view === 'methods') {
        // A saved method 3-D Secure verified: it stays chosen, with its new nonce, in its place in the list.
        const savedMethods = state.savedMethods.map((m) => (m.nonce === state.activeMethod?.nonce ? result : m));
        return { ...state, savedMethods, activeMethod: result, sheetError: null };
      }
      if (result.vaulted) {
        // Saved on the way: it goes on top of the saved list, chosen, and the list shows (the form is emptied).
        const savedMethods = [result, ...state.savedMethods.filter((m) => m.nonce !== result.nonce)];
        const listed = changeView(
          { ...state, savedMethods, activeMethod: result, selected: null, editing: false },
          'methods',
          emit,
        );
        return resetFields(listed, emit);
      }
      const next = { ...state, selected: result, sheetError: null };
      return state.settings.clearFieldsAfterTokenization ? resetFields(next, emit) : next;
    },
    resolveRequest: (state, event, emit) => {
      const result = deliveredCard(state, event);
      if (result !== null) emit({ type: 'resolveRequest', result });
      return state;
    },
    applyTokenizeFailure: (state, event, emit) => {
      if (event.type !== 'TOKENIZE_FAILED') return state;
      const info = tokenizeFailureInfo(event.failure);
      let next: CheckoutState = { ...state, sheetError: info.messageKey };
      if (info.code === 'unsupported_card_type') next = withField(next, 'number', { error: 'field.number.unsupported' });
      const named = (event.failure.fields ?? []).filter((field) => next.visibleFields.includes(field));
      for (const field of named) next = withField(next, field, { error: `field.${field}.invalid` });
      // A field the gateway named takes focus (the shopper fixes it); otherwise the message does (nothing to fix in the
      // form: the shopper reads it and presses Pay again, with the card still typed).
      const fix = info.code === 'unsupported_card_type' ? 'number' : named[0];
      emit(fix !== undefined ? { type: 'focusField', field: fix } : { type: 'focusAlert' });
      emit({ type: 'rejectRequest', error: info });
      return next;
    },
  },
};
