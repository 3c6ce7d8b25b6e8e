// State -> props for the saved methods and the delete confirmation (the connect step, as checkout.connect.ts), in a
// module of their own: only the views loaded on demand import it, so the card view's bundle does not carry it.
import type { Translate } from '../i18n/i18n.ts';
import type { CheckoutState, PaymentMethodResult } from './checkout.types.ts';

export interface SavedMethodProps {
  readonly nonce: string;
  /** "Visa ending in 1881". */
  readonly label: string;
  readonly brand: string;
  readonly expires: string;
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

function methodProps(method: PaymentMethodResult, state: CheckoutState, t: Translate): SavedMethodProps {
  const { cardType: brand, lastFour, expirationMonth, expirationYear } = method.details;
  return {
    nonce: method.nonce,
    label: t('methods.card', { brand, lastFour }),
    brand,
    expires: t('methods.expires', { month: expirationMonth.padStart(2, '0'), year: expirationYear.slice(-2) }),
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
      ? t('methods.payingWith', { source: t('option.card') })
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

export function connectDeleteConfirmation(state: CheckoutState, t: Translate): DeleteConfirmationProps | null {
  const method = state.pendingDelete;
  if (method === null) return null;
  return {
    question: t('delete.question', { brand: method.details.cardType, lastFour: method.details.lastFour }),
    cancelText: t('delete.cancel'),
    confirmText: t('delete.confirm'),
    busy: state.phase === 'submitting',
  };
}
