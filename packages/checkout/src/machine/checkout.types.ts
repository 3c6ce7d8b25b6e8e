// The checkout's domain vocabulary. Every union here is closed: a misspelled view, event, guard or action name
// does not compile. Nothing in this file touches the DOM or the network.
import type { MessageKey } from '../i18n/catalogue.ts';

/** The hosted card fields, named as the frame protocol names them (contracts section 1). */
export type FieldName = 'cardholderName' | 'number' | 'expirationDate' | 'cvv' | 'postalCode';

/** Display order of the card form. */
export const FIELD_ORDER: readonly FieldName[] = ['cardholderName', 'number', 'expirationDate', 'cvv', 'postalCode'];

/** What a frame reports about its input; validity is judged inside the frame. */
export interface FieldState {
  readonly isEmpty: boolean;
  readonly isValid: boolean;
  readonly isPotentiallyValid: boolean;
  readonly isFocused: boolean;
}

/** One brand candidate reported by the number frame while the shopper types. */
export interface CardCandidate {
  readonly type: string;
  readonly niceType: string;
  readonly code: { readonly name: string; readonly size: number };
}

/** The part of the gateway configuration the checkout reads. */
export interface GatewayConfiguration {
  readonly environment: string;
  readonly merchantId: string;
  readonly clientApiUrl: string;
  readonly assetsUrl: string;
  readonly challenges: readonly string[];
  readonly creditCards: { readonly supportedCardTypes: readonly string[] };
  readonly threeDSecureEnabled: boolean;
}

export interface CardDetails {
  readonly bin: string;
  readonly cardType: string;
  readonly lastFour: string;
  readonly lastTwo: string;
  readonly expirationMonth: string;
  readonly expirationYear: string;
  readonly cardholderName: string | null;
}

export interface BinData {
  readonly commercial: string;
  readonly countryOfIssuance: string;
  readonly debit: string;
  readonly durbinRegulated: string;
  readonly healthcare: string;
  readonly issuingBank: string;
  readonly payroll: string;
  readonly prepaid: string;
  readonly productId: string;
}

/** What requestPaymentMethod() resolves with (spec section 3). */
export interface PaymentMethodResult {
  readonly nonce: string;
  readonly type: 'CreditCard';
  readonly details: CardDetails;
  readonly description: string;
  readonly binData: BinData | undefined;
  readonly vaulted: false;
  /** 3-D Secure is not part of this slice: always undefined for now. */
  readonly liabilityShifted: boolean | undefined;
  readonly liabilityShiftPossible: boolean | undefined;
  readonly threeDSecureInfo: Readonly<Record<string, unknown>> | undefined;
  /** Device data collection is not part of this slice: always undefined for now. */
  readonly deviceData: string | undefined;
}

/** Stable error codes: load failures (onError) and requestPaymentMethod() rejections. */
export type CheckoutErrorCode =
  | 'invalid_authorization'
  | 'authorization_rejected'
  | 'configuration_failed'
  | 'network'
  | 'no_payment_options'
  | 'fields_failed'
  | 'not_ready'
  | 'request_in_progress'
  | 'invalid_fields'
  | 'unsupported_card_type'
  | 'authorization'
  | 'gateway';

export interface CheckoutErrorInfo {
  readonly code: CheckoutErrorCode;
  readonly messageKey: MessageKey;
  /** Whether a retry can help (a network failure can; a bad token cannot). */
  readonly retriable: boolean;
}

/** Tokenization failures as the number frame reports them (contracts section 1). */
export type TokenizeFailureCode = 'invalid_fields' | 'unsupported_card_type' | 'network' | 'authorization' | 'gateway';

export interface TokenizeFailure {
  readonly code: TokenizeFailureCode | string;
  readonly message: string;
  readonly fields?: readonly FieldName[];
}

/** Views the drop-in knows; only `card` is rendered in this slice. A loading overlay is a phase, not a view. */
export type ViewId = 'options' | 'methods' | 'card';

/** Lifecycle of the sheet; `mounting` means the card view is rendered and its frames are loading. */
export type Phase = 'loading' | 'mounting' | 'ready' | 'submitting' | 'error';

export type CardholderNameOption = 'optional' | 'required' | false;

export interface CheckoutSettings {
  readonly cardholderName: CardholderNameOption;
  /** Empty the card fields after a successful tokenization (the drop-in's default). */
  readonly clearFieldsAfterTokenization: boolean;
}

export interface FieldEntry {
  readonly state: FieldState;
  /** The message shown under the field, or null. */
  readonly error: MessageKey | null;
}

export type FieldMap = Readonly<Record<FieldName, FieldEntry>>;

export type Requestability =
  | { readonly requestable: false }
  | { readonly requestable: true; readonly paymentMethodIsSelected: boolean };

export interface CheckoutState {
  readonly phase: Phase;
  readonly view: ViewId | null;
  readonly settings: CheckoutSettings;
  readonly config: GatewayConfiguration | null;
  /** Fields shown for this configuration and these settings, in display order. */
  readonly visibleFields: readonly FieldName[];
  readonly fields: FieldMap;
  readonly cards: readonly CardCandidate[];
  /** An empty field that just lost focus: its message shows only if focus lands on another card field. */
  readonly pendingEmptyBlur: FieldName | null;
  readonly sheetError: MessageKey | null;
  readonly loadError: CheckoutErrorInfo | null;
  /** The card tokenized last; requestPaymentMethod() returns it until the shopper types a new card or clears it. */
  readonly selected: PaymentMethodResult | null;
  readonly requestability: Requestability;
}

export type CheckoutEvent =
  | { readonly type: 'CONFIG_LOADED'; readonly config: GatewayConfiguration }
  | { readonly type: 'CONFIG_FAILED'; readonly error: CheckoutErrorInfo }
  | { readonly type: 'FRAMES_READY' }
  | { readonly type: 'FRAMES_FAILED'; readonly error: CheckoutErrorInfo }
  | { readonly type: 'RETRY' }
  | {
      readonly type: 'FIELD_STATE';
      readonly field: FieldName;
      readonly event: 'focus' | 'blur' | 'input';
      readonly state: FieldState;
    }
  | { readonly type: 'BLUR_SETTLED'; readonly field: FieldName }
  | { readonly type: 'CARD_TYPE_CHANGED'; readonly cards: readonly CardCandidate[] }
  | { readonly type: 'SUBMIT' }
  | { readonly type: 'TOKENIZED'; readonly result: PaymentMethodResult }
  | { readonly type: 'TOKENIZE_FAILED'; readonly failure: TokenizeFailure }
  | { readonly type: 'CLEAR_SELECTION' };

export type CheckoutEventType = CheckoutEvent['type'];

/** Work the machine asks its host to do; the machine itself never performs I/O. */
export type CheckoutEffect =
  | { readonly type: 'loadConfiguration' }
  | { readonly type: 'announceReady' }
  | { readonly type: 'reportLoadError'; readonly error: CheckoutErrorInfo }
  | { readonly type: 'scheduleBlurSettle'; readonly field: FieldName }
  | { readonly type: 'tokenize'; readonly fields: readonly FieldName[] }
  | { readonly type: 'clearFields' }
  | { readonly type: 'resolveRequest'; readonly result: PaymentMethodResult }
  | { readonly type: 'rejectRequest'; readonly error: CheckoutErrorInfo }
  | { readonly type: 'paymentMethodRequestable'; readonly paymentMethodIsSelected: boolean }
  | { readonly type: 'noPaymentMethodRequestable' };

export type GuardName = 'hasCardOption' | 'hasSelection' | 'formValid' | 'isRetriable';

export type ActionName =
  | 'storeConfig'
  | 'setNoOptionsError'
  | 'setLoadError'
  | 'reportLoadError'
  | 'announceReady'
  | 'clearLoadError'
  | 'loadConfiguration'
  | 'updateField'
  | 'forgetPendingBlur'
  | 'setCards'
  | 'resolveSelected'
  | 'startTokenize'
  | 'showAllErrors'
  | 'rejectInvalid'
  | 'rejectNotReady'
  | 'rejectBusy'
  | 'selectResult'
  | 'resolveRequest'
  | 'applyTokenizeFailure'
  | 'clearSelection';

export interface Transition {
  readonly guard?: GuardName;
  readonly target?: Phase;
  readonly actions: readonly ActionName[];
}

/** For each phase and event: the candidate transitions, first passing guard wins; absent = event ignored. */
export type TransitionTable = {
  readonly [P in Phase]: { readonly [E in CheckoutEventType]?: readonly Transition[] };
};

export interface MachineStep {
  readonly state: CheckoutState;
  readonly effects: readonly CheckoutEffect[];
}
