// The checkout's domain vocabulary. Every union here is closed: a misspelled view, event, guard or action name
// does not compile. Nothing in this file touches the DOM or the network.
import type { MessageKey } from '../i18n/catalogue.ts';
import type { PaymentOptionId } from './payment-options.ts';

/** The hosted card fields, named as the frame protocol names them (contracts section 1). */
export type FieldName = 'cardholderName' | 'number' | 'expirationDate' | 'cvv' | 'postalCode';

/** Display order of the card form. */
export const FIELD_ORDER: readonly FieldName[] = ['cardholderName', 'number', 'expirationDate', 'cvv', 'postalCode'];

/** One of the card fields' names: what a frame's message or the gateway's answer says is checked with it. */
export function isFieldName(value: unknown): value is FieldName {
  return (FIELD_ORDER as readonly unknown[]).includes(value);
}

/** What a frame reports about its input; validity is judged inside the frame. */
export interface FieldState {
  readonly isEmpty: boolean;
  readonly isValid: boolean;
  readonly isPotentiallyValid: boolean;
  readonly isFocused: boolean;
}

/**
 * Why a frame reports its state: the shopper's focus, blur or input, or `validate`, its value judged again at the
 * checkout's word (the CVV's length set by the number's brand, the field emptied): not typing.
 */
export type FieldReport = 'focus' | 'blur' | 'input' | 'validate';

/** One brand candidate reported by the number frame while the shopper types. */
export interface CardCandidate {
  readonly type: string;
  readonly niceType: string;
  readonly code: { readonly name: string; readonly size: number };
}

/** The part of the gateway configuration the checkout reads. */
export interface GatewayConfiguration {
  readonly clientApiUrl: string;
  readonly assetsUrl: string;
  readonly challenges: readonly string[];
  readonly creditCards: { readonly supportedCardTypes: readonly string[] };
  readonly threeDSecureEnabled: boolean;
  /** Wallets the gateway enables (each option also needs the merchant's option and, for some, browser support). */
  readonly paypalEnabled: boolean;
  readonly applePayWeb: boolean;
  readonly androidPay: boolean;
  readonly payWithVenmo: boolean;
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

/** The kinds of payment method, as the provider names them. */
export type PaymentMethodType = 'CreditCard' | 'PayPalAccount' | 'VenmoAccount' | 'ApplePayCard' | 'AndroidPayCard';

/**
 * What a wallet adds to the details: the provider account's `email`, the payment app's `username`, the phone and
 * search wallets' `rawPaymentData` (their card's brand and last digits are in the card fields; fields a wallet does
 * not have are empty strings).
 */
export interface WalletDetails {
  readonly email?: string;
  readonly username?: string;
  readonly rawPaymentData?: unknown;
}

/** What requestPaymentMethod() resolves with (spec section 3). */
export interface PaymentMethodResult {
  readonly nonce: string;
  readonly type: PaymentMethodType;
  readonly details: CardDetails & WalletDetails;
  readonly description: string;
  readonly binData: BinData | undefined;
  /** A saved method (listed for the customer, or saved by "Save card" on the way). */
  readonly vaulted: boolean;
  /** A saved method a subscription still charges: shown disabled in edit mode, never deleted. */
  readonly hasSubscription: boolean;
  /** The customer's default saved method (saved methods only). */
  readonly default?: boolean;
  /** 3-D Secure's outcome (undefined when 3-D Secure did not run): see ThreeDSecureOption. */
  readonly liabilityShifted: boolean | undefined;
  readonly liabilityShiftPossible: boolean | undefined;
  readonly threeDSecureInfo: Readonly<Record<string, unknown>> | undefined;
  /** The device data collected for the provider's fraud tools; undefined when it could not be collected. */
  readonly deviceData: string | undefined;
  /**
   * A wallet the shopper asked to save while paying (its view's "Save {wallet} for my next payments", offered with the
   * wallet's `offerSave` option): approved for later charges too, not saved yet. Save it through your server (which
   * then pays with the saved method); the checkout saves nothing itself.
   */
  readonly vaultRequested?: boolean;
}

/** Stable error codes: load failures (onError) and requestPaymentMethod() rejections. */
export type CheckoutErrorCode =
  | 'invalid_authorization'
  | 'authorization_rejected'
  | 'configuration_failed'
  | 'network'
  | 'no_payment_options'
  | 'all_options_failed'
  | 'rate_limited'
  | 'timeout'
  | 'insufficient_privileges'
  | 'no_payment_method'
  | 'duplicate_payment_method'
  | 'use_wallet_button'
  | 'not_ready'
  | 'request_in_progress'
  | 'invalid_fields'
  | 'unsupported_card_type'
  | 'authorization'
  | 'gateway'
  | 'three_d_secure_failed'
  | 'three_d_secure_canceled';

export interface CheckoutErrorInfo {
  readonly code: CheckoutErrorCode;
  readonly messageKey: MessageKey;
  /** Whether a retry can help (a network failure can; a bad token cannot). */
  readonly retriable: boolean;
  /** How long the gateway asked us to wait before trying again (HTTP 429 Retry-After). */
  readonly retryAfterMs?: number;
}

/**
 * Tokenization failures as a provider reports them: the sandbox's number frame (contracts section 1) and the sandbox
 * provider reading the gateway's error answers it passes on (`gateway_answer`, provider/http-failures.ts), braintree-web.
 */
export type TokenizeFailureCode =
  | 'invalid_fields'
  | 'unsupported_card_type'
  | 'network'
  | 'timeout'
  | 'authorization'
  | 'forbidden'
  | 'rate_limited'
  | 'verification_failed'
  | 'duplicate_card'
  | 'duplicate_payment_method'
  | 'gateway_answer'
  /**
   * A submit's module of the sandbox's frames (fields/submit.ts, imported on demand) did not download, or the frames did
   * not answer a submit's `sync` in time (their card rules, the sandbox's validate.js, did not download).
   */
  | 'not_downloaded'
  | 'gateway';

/**
 * A part of the checkout (saved methods, 3-D Secure, wallets, the payment's; the tokenization's module at a Pay) or a
 * view imported on demand did not download. No Try again: a browser keeps a module that failed to download (Chromium answers every later import of its
 * URL with the same failure without asking the server again), so only a reload of the page loads it.
 */
export const NOT_DOWNLOADED: CheckoutErrorInfo = {
  code: 'network',
  messageKey: 'error.invalidAuthorization',
  retriable: false,
};

/** An HTTP answer of the gateway's other than a tokenized card, as the number frame passes it on. */
export interface GatewayAnswer {
  readonly status: number;
  /** The Retry-After header as sent, null without one. */
  readonly retryAfter: string | null;
  /** The answer's JSON, null when it is not JSON: untrusted, read field by field. */
  readonly body: unknown;
}

export interface TokenizeFailure {
  readonly code: TokenizeFailureCode | string;
  readonly message: string;
  readonly fields?: readonly FieldName[];
  /** rate_limited: the gateway's Retry-After, in milliseconds. */
  readonly retryAfterMs?: number;
  /** gateway_answer: the answer, for the provider to read. */
  readonly answer?: GatewayAnswer;
}

/**
 * Views: the option list, the saved methods (built on this frame by the saved-methods work) and one view per way to
 * pay. A loading overlay is a phase, not a view.
 */
export type ViewId = 'options' | 'methods' | 'delete-confirmation' | PaymentOptionId;

/**
 * Lifecycle of the sheet: `loading` the configuration, `mounting` while the offered options initialise (the card's
 * frames load), `ready`, `submitting` a card, `authenticating` it with 3-D Secure, `error` (load failed), `closed`
 * after teardown().
 */
export type Phase = 'loading' | 'mounting' | 'ready' | 'submitting' | 'authenticating' | 'error' | 'closed';

/**
 * 3-D Secure, normalised from the merchant option: off (`false`), or on with the amount to authenticate (a decimal
 * string such as '12.00', the provider's form; `null`: given to each requestPaymentMethod() call). It runs only when
 * the gateway configuration enables it too.
 */
export type ThreeDSecureOption = false | { readonly amount: string | null };

/** Cardholder name, normalised from the merchant option: hidden (false), optional or required. */
export type CardholderNameOption = 'optional' | 'required' | false;

/** Postal code: required when the gateway's `challenges` ask for it, or always (the merchant's reading). */
export type PostalCodeOption = 'gateway' | 'required';

export interface CheckoutSettings {
  readonly cardholderName: CardholderNameOption;
  readonly postalCode: PostalCodeOption;
  /** Empty the card fields after a successful tokenization; off by default (see README "Fields after paying"). */
  readonly clearFieldsAfterTokenization: boolean;
  /** The merchant's order of the options; only those enabled are offered. */
  readonly paymentOptionPriority: readonly PaymentOptionId[];
  /** Options the merchant enabled (the card unless `card: false`; a wallet when its options are given). */
  readonly merchantEnabled: Readonly<Record<PaymentOptionId, boolean>>;
  /**
   * Offer the "Save card" checkbox (the merchant allows it and the shopper is signed in: a customer-bound token, or a
   * provider whose tokenize saves through the merchant's server).
   */
  readonly vaultCard: boolean;
  /** The vault manager: an "Edit" button lets the shopper delete saved methods. */
  readonly vaultManager: boolean;
  /** Open the saved methods with the default (or first) one already chosen. Default true. */
  readonly preselectVaultedPaymentMethod: boolean;
  readonly threeDSecure: ThreeDSecureOption;
}

/** An offered option and how its initialisation went; a failed one is shown disabled when others loaded. */
export interface OptionEntry {
  readonly id: PaymentOptionId;
  readonly status: 'loading' | 'ready' | 'failed';
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
  /** The active view; while mounting, the view that will open (rendered inert so the sheet keeps its size). */
  readonly view: ViewId | null;
  /** The options offered, in priority order. */
  readonly options: readonly OptionEntry[];
  /** The customer's saved methods; filled by the saved-methods work, empty until then and for guests. */
  readonly savedMethods: readonly PaymentMethodResult[];
  /** The saved method chosen in the `methods` view (requestPaymentMethod() there returns it). */
  readonly activeMethod: PaymentMethodResult | null;
  /** Edit mode of the saved methods (vault manager): methods can be deleted, none can be chosen. */
  readonly editing: boolean;
  /** The method the delete confirmation asks about (and, once confirmed, the one being deleted). */
  readonly pendingDelete: PaymentMethodResult | null;
  /** The "Save card" checkbox (checked by default; only shown when settings.vaultCard). */
  readonly saveCard: boolean;
  readonly settings: CheckoutSettings;
  readonly config: GatewayConfiguration | null;
  /** Fields shown for this configuration and these settings, in display order. */
  readonly visibleFields: readonly FieldName[];
  readonly fields: FieldMap;
  /**
   * The fields whose frame, of those mounted last, is ready: while the other frames load, each of these can already be
   * typed in (the card number first, as its frame is created first), and the card is ready (its option settles) once
   * every shown field's is. The frames mounted again (the card view back after a load error) start it over.
   */
  readonly framesReady: readonly FieldName[];
  readonly cards: readonly CardCandidate[];
  /** An empty field that just lost focus: its message shows only if focus lands on another card field. */
  readonly pendingEmptyBlur: FieldName | null;
  readonly sheetError: MessageKey | null;
  readonly loadError: CheckoutErrorInfo | null;
  /** The card tokenized last; requestPaymentMethod() returns it until the shopper types a new card or clears it. */
  readonly selected: PaymentMethodResult | null;
  /** The method the shown wallet view's own flow approved (requestPaymentMethod() resolves with it); a view change clears it. */
  readonly walletMethod: PaymentMethodResult | null;
  /** The 3-D Secure challenge page (on the gateway's origin) shown in the modal frame, while one is open. */
  readonly challengeUrl: string | null;
  readonly requestability: Requestability;
}

export type CheckoutEvent =
  /** `options`: what offeredOptions() kept for this configuration, settings and browser. */
  | {
      readonly type: 'CONFIG_LOADED';
      readonly config: GatewayConfiguration;
      readonly options: readonly PaymentOptionId[];
      /** The customer's saved methods (none for guests, or when they could not be listed). */
      readonly savedMethods?: readonly PaymentMethodResult[];
    }
  | { readonly type: 'CONFIG_FAILED'; readonly error: CheckoutErrorInfo }
  | { readonly type: 'OPTION_READY'; readonly option: PaymentOptionId }
  | { readonly type: 'OPTION_FAILED'; readonly option: PaymentOptionId }
  | { readonly type: 'RETRY' }
  | { readonly type: 'SELECT_OPTION'; readonly option: PaymentOptionId }
  /** The "Choose another way to pay" toggle. */
  | { readonly type: 'SHOW_OPTIONS' }
  | { readonly type: 'UPDATE_SETTINGS'; readonly settings: Partial<Pick<CheckoutSettings, 'clearFieldsAfterTokenization'>> }
  | { readonly type: 'TEARDOWN' }
  | {
      readonly type: 'FIELD_STATE';
      readonly field: FieldName;
      readonly event: FieldReport;
      readonly state: FieldState;
    }
  | { readonly type: 'BLUR_SETTLED'; readonly field: FieldName }
  /** The fields' frames were mounted (the card view's, each time it mounts): new frames, none of them ready yet. */
  | { readonly type: 'FIELDS_MOUNTED' }
  | { readonly type: 'FRAME_READY'; readonly field: FieldName }
  | { readonly type: 'CARD_TYPE_CHANGED'; readonly cards: readonly CardCandidate[] }
  | { readonly type: 'SUBMIT' }
  /** Every frame has answered the request below (its reports sent before it have arrived), or did not in time. */
  | { readonly type: 'FIELDS_SETTLED' }
  | { readonly type: 'TOKENIZED'; readonly result: PaymentMethodResult }
  | { readonly type: 'TOKENIZE_FAILED'; readonly failure: TokenizeFailure }
  | { readonly type: 'CLEAR_SELECTION' }
  /** The shopper chose a saved method (by its nonce). */
  | { readonly type: 'SELECT_METHOD'; readonly nonce: string }
  | { readonly type: 'EDIT_METHODS' }
  | { readonly type: 'DONE_EDITING' }
  | { readonly type: 'ASK_DELETE'; readonly nonce: string }
  | { readonly type: 'CANCEL_DELETE' }
  | { readonly type: 'CONFIRM_DELETE' }
  /** Deleted; `methods` is the list fetched again afterwards. */
  | { readonly type: 'METHOD_DELETED'; readonly methods: readonly PaymentMethodResult[] }
  | { readonly type: 'DELETE_FAILED' }
  | { readonly type: 'SET_SAVE_CARD'; readonly save: boolean }
  /** 3-D Secure: the issuer asks for a challenge (its page's URL), the verified card, a failure, the shopper's cancel. */
  | { readonly type: 'THREE_D_SECURE_CHALLENGE'; readonly url: string }
  | { readonly type: 'THREE_D_SECURE_RESULT'; readonly result: PaymentMethodResult }
  | { readonly type: 'THREE_D_SECURE_FAILED' }
  | { readonly type: 'THREE_D_SECURE_CANCELED' }
  /** The shopper approved a wallet's payment in its own flow (its failures and cancels are the wallet view's). */
  | { readonly type: 'WALLET_APPROVED'; readonly option: PaymentOptionId; readonly result: PaymentMethodResult };

export type CheckoutEventType = CheckoutEvent['type'];

/** Work the machine asks its host to do; the machine itself never performs I/O. */
export type CheckoutEffect =
  | { readonly type: 'loadConfiguration' }
  | { readonly type: 'scheduleRetry'; readonly afterMs: number }
  | { readonly type: 'announceReady' }
  | { readonly type: 'reportLoadError'; readonly error: CheckoutErrorInfo }
  | Tell
  /** Move focus to the first control of a view the shopper just opened. */
  | { readonly type: 'focusView'; readonly view: ViewId }
  | { readonly type: 'focusField'; readonly field: FieldName }
  /** Move focus to the sheet's message (a failure the shopper must read before acting again). */
  | { readonly type: 'focusAlert' }
  | { readonly type: 'cardFieldEvent'; readonly name: CardFieldEventName; readonly field: FieldName }
  | { readonly type: 'scheduleBlurSettle'; readonly field: FieldName }
  /**
   * Ask the shown fields' frames to answer once the reports they sent before have arrived: a card filled at once (a
   * browser's autofill, a paste) and submitted at once may still have a field's last report on its way.
   */
  | { readonly type: 'settleFields' }
  | { readonly type: 'tokenize'; readonly fields: readonly FieldName[]; readonly vault: boolean }
  | { readonly type: 'deleteMethod'; readonly nonce: string }
  | { readonly type: 'clearFields' }
  | { readonly type: 'resolveRequest'; readonly result: PaymentMethodResult }
  | { readonly type: 'rejectRequest'; readonly error: CheckoutErrorInfo }
  /** Run 3-D Secure for this card (lookup, then a challenge if the issuer asks). */
  | { readonly type: 'verifyThreeDSecure'; readonly card: PaymentMethodResult }
  /** Stop the 3-D Secure running (its challenge's modal did not download). */
  | { readonly type: 'abortThreeDSecure' };

/** What `paymentMethodRequestable` carries. */
export interface PaymentMethodRequestableEvent {
  readonly type: PaymentMethodType;
  readonly paymentMethodIsSelected: boolean;
}

/** What the card field events carry (the provider's hosted-fields event shape, without the DOM containers). */
export interface CardFieldEvent {
  /** The field the event is about. */
  readonly emittedBy: FieldName;
  /** Every shown field's state. */
  readonly fields: Readonly<Partial<Record<FieldName, FieldState>>>;
  /** The brands the number may be; one once it is known. */
  readonly cards: readonly CardCandidate[];
}

/**
 * The events the integrator is told of, under the provider's drop-in names, and their payloads: the machine's
 * transitions make them (`Tell`), runtime/events.ts passes them on.
 */
export interface CheckoutEventMap {
  readonly paymentMethodRequestable: PaymentMethodRequestableEvent;
  readonly noPaymentMethodRequestable: undefined;
  readonly paymentOptionSelected: { readonly paymentOption: PaymentOptionId };
  readonly changeActiveView: { readonly previousViewId: ViewId; readonly newViewId: ViewId };
  readonly 'card:focus': CardFieldEvent;
  readonly 'card:blur': CardFieldEvent;
  readonly 'card:empty': CardFieldEvent;
  readonly 'card:notEmpty': CardFieldEvent;
  readonly 'card:validityChange': CardFieldEvent;
  readonly 'card:cardTypeChange': CardFieldEvent;
  /** The first six digits of the card number are known (for BIN-based rules such as surcharges). */
  readonly 'card:binAvailable': { readonly bin: string };
  /** Enter was pressed in a card field: the shopper wants to pay, as Enter in a form submits it. */
  readonly 'card:inputSubmitRequest': { readonly field: FieldName };
  /** The shopper cancelled the 3-D Secure challenge (requestPaymentMethod() rejects with three_d_secure_canceled). */
  readonly 'threeDSecure:customer-canceled': undefined;
  /** The issuer's challenge is shown in the checkout's modal frame. */
  readonly 'threeDSecure:authentication-modal-render': undefined;
  readonly 'threeDSecure:authentication-modal-close': undefined;
}

export type CheckoutEventName = keyof CheckoutEventMap;

/**
 * Tell the integrator of an event with its payload (its prop, when it has one, and the listeners given to `on`): one
 * effect for them all, the payload made by the transition, so the runtime only passes it on (issue 10: a case each was
 * in the card view's download).
 */
export type Tell = {
  readonly [E in keyof CheckoutEventMap]: { readonly type: 'tell'; readonly event: E; readonly payload: CheckoutEventMap[E] };
}[keyof CheckoutEventMap];

/** The hosted-field events the provider's drop-in passes on as `card:<name>`. */
export type CardFieldEventName = 'focus' | 'blur' | 'empty' | 'notEmpty' | 'validityChange' | 'cardTypeChange';

/** Guards and actions of the card view, always loaded. */
export type CoreGuardName = 'hasOptions' | 'isRateLimited' | 'lastOptionSettles' | 'allOptionsFailed' | 'isRetriable';

export type CoreActionName =
  | 'storeConfig'
  | 'setNoOptionsError'
  | 'setLoadError'
  | 'setAllOptionsFailed'
  | 'scheduleRetry'
  | 'reportLoadError'
  | 'markOption'
  | 'updateSettings'
  | 'close'
  | 'announceReady'
  | 'clearLoadError'
  | 'loadConfiguration'
  | 'trackFrames'
  | 'clearSelection';

/** The other ways' part: a way chosen from the list, the toggle back to it (src/machine/parts/other-ways.ts, on demand). */
export type OtherWaysGuardName = 'optionUsable' | 'hasOtherWays';
export type OtherWaysActionName = 'openOption' | 'openOptionList';

/** The typing part's actions: the frames' reports once a card can be typed (src/machine/parts/typing.ts, on demand). */
export type TypingActionName = 'updateField' | 'forgetPendingBlur' | 'setCards';

/** The payment's guards and actions: a submit and its outcome (src/machine/parts/payment.ts, loaded on demand). */
export type PaymentGuardName = 'onOptionsView' | 'hasSelection' | 'formValid';

export type PaymentActionName =
  | 'rejectNotReady'
  | 'rejectBusy'
  | 'rejectNoPaymentMethod'
  | 'resolveSelected'
  | 'focusFirstInvalid'
  | 'startTokenize'
  | 'settleFields'
  | 'showAllErrors'
  | 'rejectInvalid'
  | 'selectResult'
  | 'resolveRequest'
  | 'applyTokenizeFailure';

/** The saved methods' guards and actions (src/machine/parts/saved-methods.ts, loaded on demand). */
export type SavedMethodsGuardName =
  | 'onMethodsView'
  | 'choosingMethod'
  | 'hasActiveMethod'
  | 'vaultManagerOn'
  | 'methodDeletable'
  | 'hasPendingDelete';

export type SavedMethodsActionName =
  | 'selectMethod'
  | 'resolveActiveMethod'
  | 'startEditing'
  | 'stopEditing'
  | 'askDelete'
  | 'cancelDelete'
  | 'startDelete'
  | 'applyDeleted'
  | 'applyDeleteFailed'
  | 'setSaveCard';

/** 3-D Secure's guards and actions (src/machine/parts/three-d-secure.ts, loaded on demand). */
export type ThreeDSecureGuardName = 'needsThreeDSecure' | 'liabilityAcceptable';

export type ThreeDSecureActionName =
  | 'startThreeDSecure'
  | 'showChallenge'
  | 'closeChallenge'
  | 'failThreeDSecure'
  | 'cancelThreeDSecure'
  | 'abandonThreeDSecure';

/** The wallets' guards and actions (src/machine/parts/wallets.ts, loaded on demand). */
export type WalletGuardName = 'onWalletView' | 'hasWalletMethod';

export type WalletActionName = 'rejectUseWalletButton' | 'selectWalletMethod' | 'resolveWalletMethod';

export type GuardName =
  | CoreGuardName
  | OtherWaysGuardName
  | PaymentGuardName
  | SavedMethodsGuardName
  | ThreeDSecureGuardName
  | WalletGuardName;

export type ActionName =
  | CoreActionName
  | TypingActionName
  | OtherWaysActionName
  | PaymentActionName
  | SavedMethodsActionName
  | ThreeDSecureActionName
  | WalletActionName;

export interface Transition {
  readonly guard?: GuardName;
  readonly target?: Phase;
  readonly actions: readonly ActionName[];
}

/** For each phase and event: the candidate transitions, first passing guard wins; absent = event ignored. */
export type TransitionTable = {
  readonly [P in Phase]: { readonly [E in CheckoutEventType]?: readonly Transition[] };
};

/** The transitions a part adds (see MachinePart). */
export type PartTransitions = { readonly [P in Phase]?: TransitionTable[P] };

export interface MachineStep {
  readonly state: CheckoutState;
  readonly effects: readonly CheckoutEffect[];
}

export type Guard = (state: CheckoutState, event: CheckoutEvent) => boolean;
export type Emit = (effect: CheckoutEffect) => void;
export type Action = (state: CheckoutState, event: CheckoutEvent, emit: Emit) => CheckoutState;

/**
 * The transitions, guards and actions of one concern of the machine. The card view's own (the core) travel with it;
 * those of the saved methods, 3-D Secure, the wallets and the choosing among the ways to pay (other-ways, with the
 * saved methods or the wallets) are parts the runtime imports on demand, before the configuration reaches the machine,
 * and only when the checkout can need them. The typing part (the frames' reports)
 * comes as the first frame is ready, and the runtime holds the reports until it is installed; the payment's part (a
 * submit in every phase and its outcome) once the checkout is ready, and the runtime passes no submit on before it is
 * installed.
 * Until a part is installed the machine has none of its transitions, as its guards would say no (there is no saved
 * method, 3-D Secure or wallet to act on).
 * A part's transitions for a phase and event are tried after those of the parts installed before it, and before the
 * core's; the payment's (`last`) after every other part's, whenever it was installed (withParts).
 */
export interface MachinePart<G extends GuardName, A extends ActionName> {
  readonly transitions?: PartTransitions;
  /** Tried after every other part's transitions: what is left of a submit is the card form's (the payment's part). */
  readonly last?: true;
  readonly guards: Readonly<Record<G, Guard>>;
  readonly actions: Readonly<Record<A, Action>>;
}

/** Any one of the machine's parts. */
export type SomeMachinePart =
  | MachinePart<CoreGuardName, CoreActionName>
  | MachinePart<never, TypingActionName>
  | MachinePart<OtherWaysGuardName, OtherWaysActionName>
  | MachinePart<PaymentGuardName, PaymentActionName>
  | MachinePart<SavedMethodsGuardName, SavedMethodsActionName>
  | MachinePart<ThreeDSecureGuardName, ThreeDSecureActionName>
  | MachinePart<WalletGuardName, WalletActionName>;

/** The transitions, guards and actions a machine has loaded so far: the core, plus the parts installed. */
export interface MachineRules {
  readonly transitions: TransitionTable;
  readonly guards: Readonly<Partial<Record<GuardName, Guard>>>;
  readonly actions: Readonly<Partial<Record<ActionName, Action>>>;
}
