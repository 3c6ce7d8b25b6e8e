// State -> props for the option list (the connect step, as checkout.connect.ts), in a module of its own: only the
// option list's view, loaded on demand, imports it, so the card view's bundle does not carry it (issue 10).
import type { Translate } from '../i18n/i18n.ts';
import { optionsHeading } from './checkout.connect.ts';
import type { CheckoutState } from './checkout.types.ts';
import type { PaymentOptionId } from './payment-options.ts';

export interface OptionItemProps {
  readonly id: PaymentOptionId;
  readonly label: string;
  /** An option that failed to initialise: shown, not selectable. */
  readonly disabled: boolean;
  readonly note: string | null;
}

export interface OptionListProps {
  readonly heading: string;
  readonly items: readonly OptionItemProps[];
}

export function connectOptions(state: CheckoutState, t: Translate): OptionListProps {
  return {
    heading: optionsHeading(state, t),
    items: state.options.map((entry) => ({
      id: entry.id,
      label: t(`option.${entry.id}`),
      disabled: entry.status !== 'ready',
      note: entry.status === 'failed' ? t('option.unavailable') : null,
    })),
  };
}
