// 3-D Secure's part of the view machine: loaded on demand, only when the merchant option and the gateway
// configuration both turn it on (see MachinePart).
import { closing, frameLoading, resetFields } from '../checkout.machine.ts';
import { deliveredCard } from './payment.ts';
import type { CheckoutErrorInfo, MachinePart, ThreeDSecureActionName, ThreeDSecureGuardName } from '../checkout.types.ts';

/**
 * 3-D Secure results that let the card through: the liability shifted, or 3-D Secure does not apply to this card
 * (not enrolled, unavailable, bypassed), where the merchant's server decides whether it accepts no shift. Any other
 * status (frictionless or challenge failed, lookup error) fails the request.
 */
const THREE_D_SECURE_PASSES: ReadonlySet<unknown> = new Set([
  'lookup_not_enrolled',
  'authentication_unavailable',
  'lookup_bypassed',
]);

const FAILED: CheckoutErrorInfo = { code: 'three_d_secure_failed', messageKey: 'error.threeDSecureFailed', retriable: true };
const CANCELED: CheckoutErrorInfo = {
  code: 'three_d_secure_canceled',
  messageKey: 'error.threeDSecureCanceled',
  retriable: true,
};

/** A card to verify (a chosen saved one at Pay, a typed one once tokenized) goes to `authenticating` first. */
const verifyFirst = [{ guard: 'needsThreeDSecure', target: 'authenticating', actions: ['startThreeDSecure'] }] as const;

export const threeDSecurePart: MachinePart<ThreeDSecureGuardName, ThreeDSecureActionName> = {
  transitions: {
    ready: { SUBMIT: verifyFirst },
    submitting: { TOKENIZED: verifyFirst },
    // The card is handed over only once 3-D Secure has run; a failure clears it and the shopper starts again.
    authenticating: {
      ...closing,
      ...frameLoading,
      SUBMIT: [{ actions: ['rejectBusy'] }],
      THREE_D_SECURE_CHALLENGE: [{ actions: ['showChallenge'] }],
      THREE_D_SECURE_RESULT: [
        { guard: 'liabilityAcceptable', target: 'ready', actions: ['closeChallenge', 'selectResult', 'resolveRequest'] },
        { target: 'ready', actions: ['closeChallenge', 'failThreeDSecure'] },
      ],
      THREE_D_SECURE_FAILED: [{ target: 'ready', actions: ['closeChallenge', 'failThreeDSecure'] }],
      THREE_D_SECURE_CANCELED: [{ target: 'ready', actions: ['closeChallenge', 'cancelThreeDSecure'] }],
      UPDATE_SETTINGS: [{ actions: ['updateSettings'] }],
      // The challenge's modal did not download, or not in time (the runtime's NOT_DOWNLOADED, sheet.tsx): it cannot
      // be shown before a reload, so the check stops and the request fails with the sheet's "Reload the page".
      CONFIG_FAILED: [{ target: 'error', actions: ['closeChallenge', 'abandonThreeDSecure', 'setLoadError', 'reportLoadError'] }],
    },
  },
  guards: {
    // Merchant option AND gateway configuration; a card that carries a 3-D Secure result already is not verified twice.
    needsThreeDSecure: (state, event) =>
      state.settings.threeDSecure !== false &&
      state.config?.threeDSecureEnabled === true &&
      deliveredCard(state, event)?.type === 'CreditCard' &&
      deliveredCard(state, event)?.threeDSecureInfo === undefined,
    liabilityAcceptable: (_, event) =>
      event.type === 'THREE_D_SECURE_RESULT' &&
      (event.result.liabilityShifted === true || THREE_D_SECURE_PASSES.has(event.result.threeDSecureInfo?.status)),
  },
  actions: {
    startThreeDSecure: (state, event, emit) => {
      const card = deliveredCard(state, event);
      if (card !== null) emit({ type: 'verifyThreeDSecure', card });
      return { ...state, sheetError: null };
    },
    showChallenge: (state, event, emit) => {
      if (event.type !== 'THREE_D_SECURE_CHALLENGE') return state;
      emit({ type: 'tell', event: 'threeDSecure:authentication-modal-render', payload: undefined });
      return { ...state, challengeUrl: event.url };
    },
    closeChallenge: (state, _, emit) => {
      if (state.challengeUrl === null) return state;
      emit({ type: 'tell', event: 'threeDSecure:authentication-modal-close', payload: undefined });
      return { ...state, challengeUrl: null };
    },
    // The card is forgotten (its fields emptied): the shopper starts again, with this card or another.
    failThreeDSecure: (state, _, emit) => {
      emit({ type: 'focusAlert' });
      emit({ type: 'rejectRequest', error: FAILED });
      return resetFields({ ...state, selected: null, activeMethod: null, sheetError: FAILED.messageKey }, emit);
    },
    abandonThreeDSecure: (state, event, emit) => {
      emit({ type: 'abortThreeDSecure' });
      if (event.type === 'CONFIG_FAILED') emit({ type: 'rejectRequest', error: event.error });
      return state;
    },
    // The shopper's own choice: nothing to announce; the typed card stays, and Pay starts 3-D Secure again.
    cancelThreeDSecure: (state, _, emit) => {
      emit({ type: 'tell', event: 'threeDSecure:customer-canceled', payload: undefined });
      emit({ type: 'rejectRequest', error: CANCELED });
      return { ...state, selected: null };
    },
  },
};
