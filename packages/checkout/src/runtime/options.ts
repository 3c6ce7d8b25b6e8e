// Merchant options arrive from JavaScript callers too: unknown values are reported with the fix and replaced by
// the default, never allowed to reach the machine half-valid. Both Kassa's shapes and the provider's drop-in shapes
// are accepted, so an integrator can switch without rewriting the options.
import { en } from '../i18n/catalogue.ts';
import type { Translations } from '../i18n/i18n.ts';
import type { CardholderNameOption, CheckoutSettings, PostalCodeOption, ThreeDSecureOption } from '../machine/checkout.types.ts';
import { PAYMENT_OPTIONS, isPaymentOptionId, type PaymentOptionId, type WalletOptionId } from '../machine/payment-options.ts';
import { isRecord } from '../provider/json.ts';
import type { OptionProblem } from './option-problems.ts';

/**
 * Cardholder name: Kassa's `'optional' | 'required' | false`, or the provider's `true` (shown, optional), `false`
 * (hidden) and `{ required: true }`.
 */
export type CardholderNameInput = CardholderNameOption | true | { readonly required?: boolean };

/** The provider's `card` option: `false` turns the card off. */
export interface CardOptions {
  readonly cardholderName?: CardholderNameInput;
}

/**
 * A wallet's own options: giving them enables the wallet (as in the provider's). Other keys (the provider's drop-in
 * takes more) are accepted and left unread.
 */
export interface WalletOptions {
  /** The amount the approval is for, the provider's decimal string ('12.00'); PayPal's vault flow needs none. */
  readonly amount?: string;
  /** PayPal: `'vault'`, the provider's vault flow (PayPal saved for later payments, nothing paid now). */
  readonly flow?: 'checkout' | 'vault';
  /** "Save {wallet} for my next payments" on its view (only with a client token for a signed-in customer). */
  readonly offerSave?: boolean;
  readonly [key: string]: unknown;
}

export interface CheckoutOptions {
  /** Show the cardholder name field, optional or required; false hides it. Default 'optional'. */
  readonly cardholderName?: CardholderNameInput;
  /** `'gateway'` (default): required when the gateway's configuration challenges it; `'required'`: always. */
  readonly postalCode?: PostalCodeOption;
  /** BCP 47 tag ("de", "fr-CA", "ar-EG"): the whole tag, then its language, else English. */
  readonly locale?: string;
  /** Your own wording for any message, by key of the English catalogue; it wins over every locale. */
  readonly translations?: Translations;
  /** Empty the card fields after a successful tokenization. Default false: they stay until the payment is done. */
  readonly clearFieldsAfterTokenization?: boolean;
  /** The order of the ways to pay. Default: card, paypal, paypalCredit, venmo, applePay, googlePay. */
  readonly paymentOptionPriority?: readonly PaymentOptionId[];
  /** The provider's card options; `false` offers no card. */
  readonly card?: CardOptions | false;
  readonly paypal?: WalletOptions;
  readonly paypalCredit?: WalletOptions;
  readonly venmo?: WalletOptions;
  readonly applePay?: WalletOptions;
  readonly googlePay?: WalletOptions;
  /**
   * Offer the "Save card" checkbox (checked by default) to a signed-in shopper: pass true only with a client token
   * generated for a customer. Guests never save. Default false.
   */
  readonly vaultCard?: boolean;
  /** Let the shopper delete saved methods ("Edit"); a method a subscription charges cannot be deleted. Default false. */
  readonly vaultManager?: boolean;
  /** Open the saved methods with the default one chosen. Default true. */
  readonly preselectVaultedPaymentMethod?: boolean;
  /**
   * 3-D Secure 2 for cards (saved ones too), when the gateway configuration enables it: `{ amount: '12.00' }` (the
   * provider's decimal string), or `true` and the amount given to each `requestPaymentMethod({ threeDSecure: { amount } })`.
   */
  readonly threeDSecure?: true | { readonly amount: string };
}

/** The provider's amount form: a decimal string with at most two decimals ('12', '12.5', '12.00'). */
export function isThreeDSecureAmount(value: unknown): value is string {
  return typeof value === 'string' && /^\d{1,15}(\.\d{1,2})?$/.test(value);
}

const warned = new Set<string>();

/** Says what is wrong and the fix, in the console; the sentence is imported only when there may be a problem. */
export function reportOptionProblem(problem: OptionProblem): void {
  void import('./option-problems.ts').then(({ describeProblem }) => {
    const sentence = describeProblem(problem);
    if (sentence !== null) console.error(`[kassa/checkout] ${sentence}`);
  });
}

/** Each problem of the options once, in the order found. */
function warnOnce(problem: OptionProblem): void {
  const key = JSON.stringify(problem);
  if (warned.has(key)) return;
  warned.add(key);
  reportOptionProblem(problem);
}

function cardholderNameFrom(value: unknown, where: string): CardholderNameOption {
  if (value === undefined || value === 'optional' || value === true) return 'optional';
  if (value === 'required' || value === false) return value;
  if (isRecord(value)) {
    const required = value.required;
    if (required === undefined || typeof required === 'boolean') return required === true ? 'required' : 'optional';
  }
  warnOnce({ kind: 'cardholderName', where, value });
  return 'optional';
}

function threeDSecureFrom(value: unknown): ThreeDSecureOption {
  if (value === undefined || value === false) return false;
  if (value === true) return { amount: null };
  const amount = isRecord(value) ? value.amount : undefined;
  if (isThreeDSecureAmount(amount)) return { amount };
  warnOnce({ kind: 'threeDSecure', value });
  return { amount: null };
}

function priorityFrom(value: unknown): readonly PaymentOptionId[] {
  if (value === undefined) return PAYMENT_OPTIONS;
  const list = Array.isArray(value) ? value : [];
  const known = list.filter(isPaymentOptionId).filter((option, index, all) => all.indexOf(option) === index);
  if (!Array.isArray(value) || known.length !== list.length || known.length === 0) {
    warnOnce({ kind: 'priority', value, known, all: PAYMENT_OPTIONS });
  }
  return known.length > 0 ? known : PAYMENT_OPTIONS;
}

function booleanFrom(value: unknown, where: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value === 'boolean') return value;
  warnOnce({ kind: 'boolean', where, value, fallback });
  return fallback;
}

const WALLETS: readonly WalletOptionId[] = ['paypal', 'paypalCredit', 'venmo', 'applePay', 'googlePay'];

/**
 * The merchant's message overrides: an unknown key or a value that is not text is reported once (with the fix) and
 * ignored, so a typo cannot blank a message.
 */
export function translationsFrom(options: CheckoutOptions | undefined): Translations {
  const overrides: unknown = options?.translations;
  if (overrides === undefined || overrides === null) return {};
  if (!isRecord(overrides)) {
    warnOnce({ kind: 'translations', value: overrides });
    return {};
  }
  const valid: Record<string, string> = {};
  for (const [key, value] of Object.entries(overrides)) {
    // The wallet views' keys (`wallet.*`) are checked by type only: their sentences load with the wallets. A key the
    // card view's English does not have is judged with the sentences the parts load (option-problems.ts): one of
    // theirs is no problem, and text given for an unknown key is kept but shows nowhere.
    if (!Object.hasOwn(en, key) && !key.startsWith('wallet.')) warnOnce({ kind: 'translationKey', key, value });
    else if (typeof value !== 'string') warnOnce({ kind: 'translationValue', key, value });
    if (typeof value === 'string') valid[key] = value;
  }
  return valid;
}

export function settingsFrom(options: CheckoutOptions | undefined): CheckoutSettings {
  const card: unknown = options?.card;
  const cardOptions = isRecord(card) ? (card as CardOptions) : undefined;
  // The provider's `card.cardholderName` wins over Kassa's top-level one when both are given.
  const cardholderName =
    cardOptions?.cardholderName !== undefined
      ? cardholderNameFrom(cardOptions.cardholderName, 'options.card.cardholderName')
      : cardholderNameFrom(options?.cardholderName, 'options.cardholderName');

  const postal: unknown = options?.postalCode;
  if (postal !== undefined && postal !== 'gateway' && postal !== 'required') {
    warnOnce({ kind: 'postalCode', value: postal });
  }
  const clear: unknown = options?.clearFieldsAfterTokenization;
  if (clear !== undefined && typeof clear !== 'boolean') {
    warnOnce({ kind: 'clearFields', value: clear });
  }

  const merchantEnabled = { card: card !== false } as Record<PaymentOptionId, boolean>;
  for (const wallet of WALLETS) {
    const given: unknown = options?.[wallet];
    merchantEnabled[wallet] = given !== undefined && given !== null && given !== false;
  }
  return {
    cardholderName,
    postalCode: postal === 'required' ? 'required' : 'gateway',
    clearFieldsAfterTokenization: clear === true,
    paymentOptionPriority: priorityFrom(options?.paymentOptionPriority),
    merchantEnabled,
    vaultCard: booleanFrom(options?.vaultCard, 'options.vaultCard', false),
    vaultManager: booleanFrom(options?.vaultManager, 'options.vaultManager', false),
    preselectVaultedPaymentMethod: booleanFrom(
      options?.preselectVaultedPaymentMethod,
      'options.preselectVaultedPaymentMethod',
      true,
    ),
    threeDSecure: threeDSecureFrom(options?.threeDSecure),
  };
}
