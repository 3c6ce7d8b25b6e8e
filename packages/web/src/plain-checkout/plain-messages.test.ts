import type { Locale } from '@kassa/checkout/dropin';
import { describe, expect, it } from 'vitest';
import type { Decline } from '../api/types.ts';
import { plainWords } from './plain-messages.ts';

// The checkout's locales (its Locale type: one missing here does not compile). Listed, since this project's tests
// resolve @kassa/checkout to its build.
const LOCALES = ['en', 'de', 'fr', 'es', 'ja', 'ar'] as const satisfies readonly Locale[];
const everyLocale: [Exclude<Locale, (typeof LOCALES)[number]>] extends [never] ? true : false = true;

const doNotHonor: Decline = {
  reason: 'processor_declined',
  processorResponseCode: '2000',
  processorResponseText: 'Do Not Honor',
};
/** Every sentence the page can show, for one locale. */
const everything = (locale: Locale): string[] => {
  const words = plainWords(locale);
  const problems = [
    'order_not_found',
    'order_already_paid',
    'botcheck_failed',
    'botcheck_anchor_timeout',
    'botcheck_execute_timeout',
    'botcheck_unavailable',
    'payment_in_progress',
    'gateway_unavailable',
    'rate_limited',
    'too_many_attempts',
    'three_d_secure_required',
    'network_error',
  ].map((code) => words.problem(code));
  const declines: (Decline | undefined)[] = [
    doNotHonor,
    { reason: 'processor_unavailable' },
    { reason: 'currency_mismatch' },
    undefined,
  ];
  return [
    words.title,
    words.documentTitle(words.title),
    words.pay('€12.00'),
    words.checkingYouAreHuman,
    ...problems,
    ...declines.map((decline) => words.problem('payment_declined', decline)),
  ];
};

describe("the plain checkout page's words", () => {
  it("are the web app's English sentences in English", () => {
    const en = plainWords('en');
    expect(en.pay('€12.00')).toBe('Pay €12.00');
    expect(en.documentTitle(en.title)).toBe('Checkout · Kassa Coffee');
    expect(en.problem('payment_declined', doNotHonor)).toBe('Your card was declined (Do Not Honor). Please try another card.');
    expect(en.problem('order_already_paid')).toBe('This order is already paid.');
  });

  it('exist in every locale the checkout speaks, each sentence its own (no English left, none shared by two problems)', () => {
    const english = new Set(everything('en'));
    expect(everyLocale).toBe(true);
    for (const locale of LOCALES.filter((l) => l !== 'en')) {
      const sentences = everything(locale);
      for (const sentence of sentences.slice(2)) expect(english.has(sentence), `${locale}: ${sentence}`).toBe(false);
      // Twelve problems and four declines: sixteen different sentences.
      expect(new Set(sentences.slice(4)).size, locale).toBe(16);
    }
  });

  it('fill in the amount and the processor response, and say something for a problem the page does not know', () => {
    const de = plainWords('de');
    expect(de.pay('12,00 €')).toBe('12,00 € bezahlen');
    expect(de.problem('payment_declined', doNotHonor)).toBe(
      'Ihre Karte wurde abgelehnt (Do Not Honor). Bitte versuchen Sie es mit einer anderen Karte.',
    );
    expect(de.problem('idempotency_key_in_use')).toBe(de.problem('payment_in_progress'));
    expect(plainWords('ar').problem('something_new')).toBe('حدث خطأ ما. يُرجى المحاولة مرة أخرى.');
    expect(plainWords('ja').pay('€12.00')).toBe('€12.00を支払う');
  });
});
