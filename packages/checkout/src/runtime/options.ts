// Merchant options arrive from JavaScript callers too: unknown values are reported with the fix and replaced by
// the default, never allowed to reach the machine half-valid.
import type { CardholderNameOption, CheckoutSettings } from '../machine/checkout.types.ts';

export interface CheckoutOptions {
  /** Show the cardholder name field, optional or required; false hides it. Default 'optional'. */
  readonly cardholderName?: CardholderNameOption;
  /** BCP 47 tag; locales without a catalogue fall back to English. */
  readonly locale?: string;
  /** Empty the card fields after a successful tokenization. Default true. */
  readonly clearFieldsAfterTokenization?: boolean;
}

const warned = new Set<string>();

function warnOnce(message: string): void {
  if (warned.has(message)) return;
  warned.add(message);
  console.error(`[kassa/checkout] ${message}`);
}

export function settingsFrom(options: CheckoutOptions | undefined): CheckoutSettings {
  const name: unknown = options?.cardholderName;
  let cardholderName: CardholderNameOption = 'optional';
  if (name === 'optional' || name === 'required' || name === false) cardholderName = name;
  else if (name !== undefined) {
    warnOnce(`options.cardholderName must be 'optional', 'required' or false, not ${JSON.stringify(name)}; using 'optional'.`);
  }
  const clear: unknown = options?.clearFieldsAfterTokenization;
  if (clear !== undefined && typeof clear !== 'boolean') {
    warnOnce(`options.clearFieldsAfterTokenization must be a boolean, not ${JSON.stringify(clear)}; using true.`);
  }
  return { cardholderName, clearFieldsAfterTokenization: typeof clear === 'boolean' ? clear : true };
}
