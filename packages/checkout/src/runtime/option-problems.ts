// What is wrong with a merchant option a JavaScript caller passed, said with the fix (runtime/options.ts reports it;
// the runtime too, for options that leave nothing to offer and for updateConfiguration() calls it cannot honour).
// Imported on demand: only a checkout given a bad option downloads these sentences, never the card view. It imports
// only the English sentences the parts load (a chunk of their own already), to tell their keys from unknown ones: a
// module it shared with the card view would become a chunk of its own, which costs the card view bytes.
import { enOnDemand } from '../i18n/catalogue-on-demand.ts';

export type OptionProblem =
  | { readonly kind: 'cardholderName'; readonly where: string; readonly value: unknown }
  | { readonly kind: 'threeDSecure'; readonly value: unknown }
  | { readonly kind: 'priority'; readonly value: unknown; readonly known: readonly string[]; readonly all: readonly string[] }
  | { readonly kind: 'boolean'; readonly where: string; readonly value: unknown; readonly fallback: boolean }
  | { readonly kind: 'translations'; readonly value: unknown }
  /** A key the card view's English does not have: one of the sentences the parts load, or unknown. */
  | { readonly kind: 'translationKey'; readonly key: string; readonly value: unknown }
  | { readonly kind: 'translationValue'; readonly key: string; readonly value: unknown }
  | { readonly kind: 'postalCode'; readonly value: unknown }
  | { readonly kind: 'clearFields'; readonly value: unknown }
  | { readonly kind: 'noPaymentOptions' }
  | { readonly kind: 'updateConfiguration'; readonly option: string; readonly key: string; readonly value: unknown };

/** The sentence, or null when there is no problem after all (a key of the sentences the parts load, given text). */
export function describeProblem(problem: OptionProblem): string | null {
  switch (problem.kind) {
    case 'cardholderName':
      return `${problem.where} must be 'optional', 'required', true, false or { required: boolean }, not ${JSON.stringify(problem.value)}; using 'optional'.`;
    case 'threeDSecure':
      return `options.threeDSecure must be true or { amount: '12.00' }, not ${JSON.stringify(problem.value)}; using true.`;
    case 'priority':
      return (
        `options.paymentOptionPriority must list some of ${problem.all.join(', ')} once each, not ${JSON.stringify(problem.value)}; ` +
        (problem.known.length > 0 ? `using ${problem.known.join(', ')}.` : 'using the default order.')
      );
    case 'boolean':
      return `${problem.where} must be a boolean, not ${JSON.stringify(problem.value)}; using ${String(problem.fallback)}.`;
    case 'translations':
      return `options.translations must be an object of message keys to text, not ${JSON.stringify(problem.value)}.`;
    case 'translationKey':
      if (Object.hasOwn(enOnDemand, problem.key))
        return describeProblem({ kind: 'translationValue', key: problem.key, value: problem.value });
      return `options.translations has an unknown key '${problem.key}'; the keys are those of the English catalogue, and wallet.* for the wallet views.`;
    case 'translationValue':
      if (typeof problem.value === 'string') return null;
      return `options.translations['${problem.key}'] must be a string, not ${JSON.stringify(problem.value)}.`;
    case 'postalCode':
      return `options.postalCode must be 'gateway' or 'required', not ${JSON.stringify(problem.value)}; using 'gateway'.`;
    case 'clearFields':
      return `options.clearFieldsAfterTokenization must be a boolean, not ${JSON.stringify(problem.value)}; using false.`;
    case 'noPaymentOptions':
      return (
        'No valid payment options available: check options.paymentOptionPriority, options.card and the wallet options ' +
        'against the gateway configuration (supported card types, wallets enabled).'
      );
    case 'updateConfiguration':
      return (
        `updateConfiguration('${problem.option}', '${problem.key}', ${JSON.stringify(problem.value)}) is not supported: ` +
        'only card.clearFieldsAfterTokenization (a boolean) can change after creation; pass other options to a new checkout.'
      );
  }
}
