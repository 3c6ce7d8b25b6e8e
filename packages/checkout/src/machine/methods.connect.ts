// State -> props for the saved methods and the delete confirmation (the connect step, as checkout.connect.ts), in a
// module of their own: only the views loaded on demand import it, so the card view's bundle does not carry it.
// Saved wallets (the provider's vault lists PayPal and Venmo accounts, Apple Pay and Google Pay cards) are named by
// their way to pay, with the account under it; their sentences come with the wallets' (wallet-messages.ts).
import { BRANDS, sameBrand } from '../brands/brands.ts';
import type { MessageKey } from '../i18n/catalogue.ts';
import type { Locale, Translate } from '../i18n/i18n.ts';
import { walletAccount, walletText } from '../i18n/wallet-messages.ts';
import type { CheckoutState, PaymentMethodResult, PaymentMethodType } from './checkout.types.ts';
import { METHOD_OPTION } from './method-options.ts';
import type { PaymentOptionId } from './payment-options.ts';

/** The way to pay a saved method is ("Paying with PayPal"), by the type the gateway gave it. */
const SOURCE: Readonly<Record<PaymentMethodType, MessageKey>> = {
  CreditCard: 'option.card',
  PayPalAccount: 'option.paypal',
  VenmoAccount: 'option.venmo',
  ApplePayCard: 'option.applePay',
  AndroidPayCard: 'option.googlePay',
};

export interface SavedMethodProps {
  readonly nonce: string;
  /** Its way to pay, for the mark beside it (a card, PayPal, Venmo, Apple Pay, Google Pay). */
  readonly option: PaymentOptionId;
  /** "Visa ending in 1881"; a saved wallet's way to pay ("PayPal"). */
  readonly label: string;
  readonly brand: string;
  /** "Expires 12/29"; for a saved wallet, its account ("shopper@paypal.example", "@venmojoe", "Visa 1111"). */
  readonly detail: string;
  readonly isDefault: boolean;
  readonly active: boolean;
  /** Edit mode: the delete button's action word (read before the card), and why it is disabled, if it is. */
  readonly deleteLabel: string;
  readonly lockedReason: string | null;
}

export interface MethodsProps {
  /** "Paying with Card", "Choose a saved card" when none is chosen, "Edit payment methods" in edit mode. */
  readonly heading: string;
  readonly editing: boolean;
  /** The Edit / Done button, when the merchant enabled the vault manager. */
  readonly editText: string | null;
  readonly methods: readonly SavedMethodProps[];
  /** "Other ways to pay" under the list (outside edit mode, when there are options). */
  readonly otherWaysHeading: string | null;
  readonly inert: boolean;
}

/** A saved card's network as the card form and the brand list write it ("Mastercard", not the gateway's "MasterCard"). */
function brandName(cardType: string): string {
  return BRANDS.find((brand) => sameBrand(brand.name, cardType))?.name ?? cardType;
}

function methodProps(method: PaymentMethodResult, state: CheckoutState, t: Translate): SavedMethodProps {
  const { cardType: brand, lastFour, expirationMonth, expirationYear } = method.details;
  const card = method.type === 'CreditCard';
  return {
    nonce: method.nonce,
    option: METHOD_OPTION[method.type],
    label: card ? t('methods.card', { brand: brandName(brand), lastFour }) : t(SOURCE[method.type]),
    brand,
    detail: card
      ? t('methods.expires', { month: expirationMonth.padStart(2, '0'), year: expirationYear.slice(-2) })
      : walletAccount(method),
    isDefault: method.default === true,
    active: state.activeMethod?.nonce === method.nonce,
    deleteLabel: t('delete.confirm'),
    lockedReason: method.hasSubscription ? t('methods.hasSubscription') : null,
  };
}

export function connectMethods(state: CheckoutState, t: Translate): MethodsProps {
  const { editing, activeMethod } = state;
  const heading = editing
    ? t('methods.editHeading')
    : activeMethod !== null
      ? t('methods.payingWith', { source: t(SOURCE[activeMethod.type]) })
      : t('methods.choose');
  return {
    heading,
    editing,
    editText: state.settings.vaultManager ? t(editing ? 'methods.done' : 'methods.edit') : null,
    methods: state.savedMethods.map((method) => methodProps(method, state, t)),
    otherWaysHeading: !editing && state.options.length > 0 ? t('sheet.otherWaysToPay') : null,
    inert: state.phase !== 'ready',
  };
}

export interface DeleteConfirmationProps {
  readonly question: string;
  readonly cancelText: string;
  readonly confirmText: string;
  readonly busy: boolean;
}

export function connectDeleteConfirmation(state: CheckoutState, t: Translate, locale: Locale): DeleteConfirmationProps | null {
  const method = state.pendingDelete;
  if (method === null) return null;
  return {
    question:
      method.type === 'CreditCard'
        ? t('delete.question', { brand: brandName(method.details.cardType), lastFour: method.details.lastFour })
        : walletText(t, locale, 'deleteQuestion', t(SOURCE[method.type]), walletAccount(method)),
    cancelText: t('delete.cancel'),
    confirmText: t('delete.confirm'),
    busy: state.phase === 'submitting',
  };
}
