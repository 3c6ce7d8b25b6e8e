// State -> view props, the zag.js "connect" step: everything a view shows (texts, data-state, ARIA flags) is
// decided here in plain TypeScript, so views stay markup and this stays testable in Node.
import { BRANDS, supportedBrands, type BrandId } from '../brands/brands.ts';
import { fieldLabel } from '../i18n/field-text.ts';
import type { Translate } from '../i18n/i18n.ts';
import type { CheckoutState, FieldName, Phase } from './checkout.types.ts';
import { detectedBrand, isFieldRequired } from './field-rules.ts';

export type PublicState = 'loading' | 'ready' | 'submitting' | 'error';

export interface RootProps {
  /** `data-state` of the root; `mounting` (frames still loading) is still loading to the outside world. */
  readonly dataState: PublicState;
  readonly busy: boolean;
  readonly loadingText: string | null;
  /** The sheet-level message (role="alert"), '' when none. */
  readonly alert: string;
  readonly retryText: string | null;
  readonly showCardView: boolean;
}

export interface FieldProps {
  readonly field: FieldName;
  readonly label: string;
  readonly optionalNote: string | null;
  readonly error: string | null;
  readonly focused: boolean;
}

export interface BrandProps {
  readonly id: BrandId;
  readonly name: string;
  readonly active: boolean;
}

export interface CardProps {
  readonly heading: string;
  readonly acceptedCardsLabel: string;
  readonly brands: readonly BrandProps[];
  readonly brandDetected: boolean;
  readonly fields: readonly FieldProps[];
  /** Status line for a tokenized card that is still selected, '' when none. */
  readonly selectedText: string;
  /** The form cannot be used yet (frames loading). */
  readonly inert: boolean;
}

function publicState(phase: Phase): PublicState {
  return phase === 'mounting' ? 'loading' : phase;
}

export function connectRoot(state: CheckoutState, t: Translate): RootProps {
  const loading = state.phase === 'loading' || state.phase === 'mounting';
  const { loadError, sheetError } = state;
  return {
    dataState: publicState(state.phase),
    busy: loading || state.phase === 'submitting',
    loadingText: loading ? t('sheet.loading') : null,
    alert: loadError !== null ? t(loadError.messageKey) : sheetError !== null ? t(sheetError) : '',
    retryText: loadError?.retriable === true ? t('sheet.retry') : null,
    showCardView: state.view === 'card',
  };
}

export function connectCard(state: CheckoutState, t: Translate): CardProps {
  const detected = detectedBrand(state.cards)?.type ?? null;
  const brands = state.config === null ? BRANDS : supportedBrands(state.config.creditCards.supportedCardTypes);
  const selected = state.selected;
  return {
    heading: t('sheet.cardHeading'),
    acceptedCardsLabel: t('sheet.acceptedCards'),
    brands: brands.map((b) => ({ id: b.id, name: b.name, active: b.id === detected })),
    brandDetected: detected !== null,
    fields: state.visibleFields.map((field) => {
      const entry = state.fields[field];
      return {
        field,
        label: fieldLabel(field, state.cards, t),
        optionalNote: isFieldRequired(field, state.settings) ? null : t('field.optional'),
        error: entry.error === null ? null : t(entry.error),
        focused: entry.state.isFocused,
      };
    }),
    selectedText:
      selected === null ? '' : t('sheet.cardSelected', { brand: selected.details.cardType, lastFour: selected.details.lastFour }),
    inert: state.phase === 'mounting',
  };
}
