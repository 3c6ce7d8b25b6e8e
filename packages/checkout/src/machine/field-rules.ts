// Required-ness, validity and messages of the card fields as the checkout (not the frame) decides them: the
// frames judge the format, the checkout adds the merchant's required-ness and the gateway's supported brands.
import type { MessageKey } from '../i18n/catalogue.ts';
import { isBrandSupported } from '../brands/brands.ts';
import {
  FIELD_ORDER,
  type CardCandidate,
  type CheckoutSettings,
  type CheckoutState,
  type FieldName,
  type FieldState,
  type GatewayConfiguration,
} from './checkout.types.ts';

export const EMPTY_FIELD_STATE: FieldState = { isEmpty: true, isValid: false, isPotentiallyValid: true, isFocused: false };

/**
 * Cardholder name follows the merchant option; CVV follows the gateway's challenges; postal code follows them too,
 * unless the merchant requires it always.
 */
export function visibleFieldsFor(config: GatewayConfiguration, settings: CheckoutSettings): readonly FieldName[] {
  return FIELD_ORDER.filter((field) => {
    if (field === 'cardholderName') return settings.cardholderName !== false;
    if (field === 'cvv') return config.challenges.includes('cvv');
    if (field === 'postalCode') return settings.postalCode === 'required' || config.challenges.includes('postal_code');
    return true;
  });
}

/**
 * The fields to draw while the configuration loads: most gateways challenge CVV and postal code, so the form that
 * appears is usually exactly the size of the placeholder (no layout shift).
 */
export function predictedFields(settings: CheckoutSettings): readonly FieldName[] {
  return FIELD_ORDER.filter((field) => field !== 'cardholderName' || settings.cardholderName !== false);
}

export function isFieldRequired(field: FieldName, settings: CheckoutSettings): boolean {
  return field === 'cardholderName' ? settings.cardholderName === 'required' : true;
}

/** The brand, once the number frame reports exactly one candidate. */
export function detectedBrand(cards: readonly CardCandidate[]): CardCandidate | null {
  return cards.length === 1 ? (cards[0] ?? null) : null;
}

/** The code length to enforce in the CVV frame: the known brand's, or null (3 or 4 accepted). */
export function cvvSize(cards: readonly CardCandidate[]): 3 | 4 | null {
  const size = detectedBrand(cards)?.code.size;
  return size === 3 || size === 4 ? size : null;
}

function isUnsupportedBrand(state: CheckoutState, field: FieldName, fieldState: FieldState): boolean {
  if (field !== 'number' || !fieldState.isValid || state.config === null) return false;
  const brand = detectedBrand(state.cards);
  return brand !== null && !isBrandSupported(brand.type, state.config.creditCards.supportedCardTypes);
}

/** The message this field deserves right now, whether or not it is shown yet (null when it is acceptable). */
export function fieldProblem(state: CheckoutState, field: FieldName): MessageKey | null {
  const fieldState = state.fields[field].state;
  if (fieldState.isEmpty) return isFieldRequired(field, state.settings) ? `field.${field}.empty` : null;
  if (isUnsupportedBrand(state, field, fieldState)) return 'field.number.unsupported';
  return fieldState.isValid ? null : `field.${field}.invalid`;
}

/** All shown fields acceptable: the card can be tokenized. */
export function isFormValid(state: CheckoutState): boolean {
  return state.visibleFields.every((field) => fieldProblem(state, field) === null);
}
