// State -> view props, the zag.js "connect" step: everything a view shows (texts, data-state, ARIA flags) is
// decided here in plain TypeScript, so views stay markup and this stays testable in Node.
import { BRANDS, supportedBrands, type BrandId } from '../brands/brands.ts';
import { fieldLabel } from '../i18n/field-text.ts';
import type { Translate } from '../i18n/i18n.ts';
import { hasOtherWays } from './checkout.machine.ts';
import type { CheckoutState, FieldName, Phase, ViewId } from './checkout.types.ts';
import { detectedBrand, isFieldRequired } from './field-rules.ts';

export type PublicState = 'loading' | 'ready' | 'submitting' | 'error' | 'closed';

export interface RootProps {
  /** `data-state` of the root; `mounting` (frames still loading) is still loading to the outside world. */
  readonly dataState: PublicState;
  /** The sheet loads (`aria-busy`). Not while paying: a screen reader may hold a busy region's news, the status's too. */
  readonly busy: boolean;
  readonly loadingText: string | null;
  /** The sheet-level message (role="alert"), '' when none (or while paying: the status says what happens now). */
  readonly alert: string;
  /**
   * The status line (role="status", polite; it shares the header with the alert): the payment on its way (the card
   * handed over, or 3-D Secure, its challenge's code downloading included; the sheet draws a spinner beside it), or a
   * tokenized card that is still selected; '' when none.
   */
  readonly statusText: string;
  /** A retry button, when trying again can help and the checkout does not retry by itself. */
  readonly retryText: string | null;
  /** The view shown; while loading, the view that will open (rendered inert under the overlay). */
  readonly view: ViewId | null;
  /** The card view stays mounted while the card is offered (its frames keep what was typed across view changes). */
  readonly cardMounted: boolean;
  /**
   * The "Choose another way to pay" toggle, when there is another way; kept while a payment is on its way (the sheet
   * draws it unseen and inert then), so what is under the sheet, the page's Pay button, does not move.
   */
  readonly toggleText: string | null;
}

export interface FieldProps {
  readonly field: FieldName;
  /** Its frame is still loading while the card number's can be typed in already. */
  readonly inert: boolean;
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
  /** The detected brand, shown inside the number field. */
  readonly detected: BrandProps | null;
  /** The form cannot be used yet (frames loading, the card number's included). */
  readonly inert: boolean;
  /** The "Save card" checkbox (label and state), when the merchant offers saving. */
  readonly saveCard: { readonly label: string; readonly checked: boolean } | null;
}

/**
 * A field the shopper can type in: every one once the card is ready; while the other frames load, those whose frame
 * is, from the moment the card number's is (its frame is created first, and it is what the shopper types first). The
 * card is handed over only once every frame is ready (the machine's `mounting` refuses a request).
 */
function usable(state: CheckoutState, field: FieldName): boolean {
  // Not while paying (nor 3-D Secure): a card whose frames still took typing could change after it was handed over.
  if (state.phase === 'ready') return true;
  const { phase, view, framesReady } = state;
  return phase === 'mounting' && view === 'card' && framesReady.includes('number') && framesReady.includes(field);
}

function publicState(phase: Phase): PublicState {
  if (phase === 'mounting') return 'loading';
  // 3-D Secure is part of handing the card over.
  return phase === 'authenticating' ? 'submitting' : phase;
}

export function connectRoot(state: CheckoutState, t: Translate): RootProps {
  const loading = state.phase === 'loading' || state.phase === 'mounting';
  const { loadError, sheetError, selected } = state;
  const live = state.phase !== 'error' && state.phase !== 'closed';
  const card = state.options.find((entry) => entry.id === 'card');
  // A card handed over (`submitting` on the delete confirmation is a saved card being deleted), or 3-D Secure.
  const paying = (state.phase === 'submitting' && state.view === 'card') || state.phase === 'authenticating';
  return {
    dataState: publicState(state.phase),
    busy: loading,
    loadingText: loading && !usable(state, 'number') ? t('sheet.loading') : null,
    // A message left from before (a submit that waits for the fields' last reports keeps it until they are in).
    alert: paying ? '' : loadError !== null ? t(loadError.messageKey) : sheetError !== null ? t(sheetError) : '',
    statusText: paying
      ? t('sheet.paying')
      : selected === null || state.view !== 'card'
        ? ''
        : t('sheet.cardSelected', { brand: selected.details.cardType, lastFour: selected.details.lastFour }),
    // A rate-limited load retries by itself once the gateway's Retry-After has passed.
    retryText: loadError?.retriable === true && loadError.retryAfterMs === undefined ? t('sheet.retry') : null,
    // While the configuration loads, the card form is drawn under the overlay: it is the usual first view.
    view: state.phase === 'loading' ? 'card' : live ? state.view : null,
    cardMounted: state.phase === 'loading' || (live && card !== undefined && card.status !== 'failed'),
    // Not on the saved methods (the other ways are listed under them) nor on the delete confirmation.
    toggleText:
      // Ready, or paying (the payment's phases are the live ones after loading). Not while a load runs: Try again's keeps
      // the saved methods the failed load listed, so hasOtherWays alone would offer it under the overlay.
      !loading &&
      live &&
      state.view !== 'options' &&
      state.view !== 'methods' &&
      state.view !== 'delete-confirmation' &&
      hasOtherWays(state)
        ? t('sheet.chooseAnotherWay')
        : null,
  };
}

/** The option list's heading, which the sheet's header shows (the list itself: options.connect.ts, on demand). */
export function optionsHeading(state: CheckoutState, t: Translate): string {
  return t(state.savedMethods.length > 0 ? 'sheet.otherWaysToPay' : 'sheet.chooseWayToPay');
}

export function connectCard(state: CheckoutState, t: Translate): CardProps {
  const detected = detectedBrand(state.cards)?.type ?? null;
  // Every brand until the configuration names them: drawn while it loads, their marks' chunk downloads meanwhile.
  const brands = state.config === null ? BRANDS : supportedBrands(state.config.creditCards.supportedCardTypes);
  const detectedInfo = BRANDS.find((b) => b.id === detected);
  return {
    heading: t('sheet.cardHeading'),
    acceptedCardsLabel: t('sheet.acceptedCards'),
    brands: brands.map((b) => ({ ...b, active: b.id === detected })),
    brandDetected: detected !== null,
    fields: state.visibleFields.map((field) => {
      const entry = state.fields[field];
      return {
        field,
        inert: !usable(state, field),
        label: fieldLabel(field, state.cards, t),
        optionalNote: isFieldRequired(field, state.settings) ? null : t('field.optional'),
        error: entry.error === null ? null : t(entry.error),
        focused: entry.state.isFocused,
      };
    }),
    detected: detectedInfo === undefined ? null : { ...detectedInfo, active: true },
    inert: !usable(state, 'number'),
    saveCard: state.settings.vaultCard ? { label: t('card.saveCard'), checked: state.saveCard } : null,
  };
}
