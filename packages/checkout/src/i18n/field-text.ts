// Field labels and placeholders as they depend on the detected brand (the CVV label names its length).
import type { CardCandidate, FieldName } from '../machine/checkout.types.ts';
import { cvvSize } from '../machine/field-rules.ts';
import type { MessageKey } from './catalogue.ts';
import type { Translate } from './i18n.ts';

export function fieldLabel(field: FieldName, cards: readonly CardCandidate[], t: Translate): string {
  if (field !== 'cvv') return t(`field.${field}.label`);
  const size = cvvSize(cards);
  return t(size === 4 ? 'field.cvv.label4' : size === 3 ? 'field.cvv.label3' : 'field.cvv.label');
}

export function fieldPlaceholder(field: FieldName, cards: readonly CardCandidate[], t: Translate): string {
  const key: MessageKey = field === 'cvv' && cvvSize(cards) === 4 ? 'field.cvv.placeholder4' : `field.${field}.placeholder`;
  return t(key);
}
