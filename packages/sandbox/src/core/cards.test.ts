import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { validateCard } from './cards.ts';
import type { CardInput } from './cards.ts';
import { validateField } from '../pages/hosted-fields/validate.ts';
import type { FieldName } from '../pages/hosted-fields/protocol.ts';

// Tokenization (core) and the hosted field frames must judge card data alike: what a frame calls valid tokenizes,
// what it refuses is refused with a 422. Run in a time zone far from UTC, so that a rule read in local time shows.

const previousTimeZone = process.env['TZ'];
beforeAll(() => {
  process.env['TZ'] = 'Pacific/Kiritimati'; // UTC+14
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterAll(() => {
  vi.useRealTimers();
  if (previousTimeZone === undefined) delete process.env['TZ'];
  else process.env['TZ'] = previousTimeZone;
});

/** The key of the card number identifiers (any key: these tests look at validation only). */
const KEY = Buffer.alloc(32, 7);

/** What the number frame decides before it sends anything (tokenize.ts). */
function frameAccepts(card: Required<Pick<CardInput, 'number' | 'expirationDate'>> & CardInput, now: Date): boolean {
  const amex = String(card.number).startsWith('37');
  const fields: Array<[FieldName, unknown]> = [
    ['number', card.number],
    ['expirationDate', card.expirationDate],
    ['cvv', card.cvv],
    ['cardholderName', card.cardholderName],
    ['postalCode', card.postalCode],
  ];
  return fields.every(
    ([field, value]) =>
      value === undefined || validateField(field, String(value), field === 'cvv' ? (amex ? 4 : 3) : null, now).isValid,
  );
}

function tokenizes(card: CardInput, now: Date): boolean {
  return validateCard(card, KEY, now).ok;
}

const INSTANTS = [
  '2026-11-30T09:00:00Z',
  '2026-11-30T11:00:00Z', // 1 December in UTC+14
  '2026-12-01T05:00:00Z', // December in UTC, still November in the Americas
  '2026-12-01T13:00:00Z',
  '2026-12-31T11:00:00Z', // 2027 in UTC+14
  '2027-01-01T06:00:00Z', // 2027 in UTC, still 2026 in the Americas
  '2027-01-01T13:00:00Z',
].map((text) => new Date(text));

/** At one fixed instant, a valid card but for `fields`: tokenization must accept it exactly when the frames do. */
function expectAgreement(fields: Partial<CardInput>): void {
  const now = new Date('2026-06-15T12:00:00Z');
  vi.setSystemTime(now);
  const card = { ...fields, number: fields.number ?? '4111111111111111', expirationDate: fields.expirationDate ?? '12/30' };
  expect(tokenizes(card, now)).toBe(frameAccepts(card, now));
}

describe('tokenization and the frames agree', () => {
  it.each(['10/26', '11/26', '11/2026', '12/26', '12/2026', '01/27', '1/27', '12/45', '01/46', '13/27', 'soon'])(
    'on the expiry %s near month and year boundaries',
    (expirationDate) => {
      for (const now of INSTANTS) {
        vi.setSystemTime(now);
        const card = { number: '4111111111111111', expirationDate };
        expect(tokenizes(card, now), `${expirationDate} at ${now.toISOString()}`).toBe(frameAccepts(card, now));
      }
    },
  );

  it.each(['SW1A 1AA', '12345', '12345-6789', 'K1A 0B1', 'a ', ' a1', 'AB#1', '-123', 'A', '12345678901'])(
    'on the postal code %j',
    (postalCode) => expectAgreement({ postalCode }),
  );

  it.each(['Ada Lovelace', '4111 1111 1111 1111', '1234-5678', '12', 'a'.repeat(255), 'a'.repeat(256)])(
    'on the cardholder name %s',
    (cardholderName) => expectAgreement({ cardholderName }),
  );

  it.each([
    ['4111111111111111', '123'],
    ['4111111111111111', '1234'],
    ['378282246310005', '1234'],
    ['378282246310005', '123'],
    ['4111111111111112', '123'],
    ['41111111111111', '123'],
  ])('on the number %s with CVV %s', (number, cvv) => expectAgreement({ number, cvv }));
});

describe('tokenization error codes', () => {
  const now = new Date('2026-12-01T13:00:00Z');
  const codes = (card: CardInput): string[] => {
    const outcome = validateCard({ number: '4111111111111111', expirationDate: '12/30', ...card }, KEY, now);
    return outcome.ok ? [] : outcome.errors.map((error) => `${error.attribute} ${error.code}`);
  };

  it('keeps the provider codes', () => {
    expect(codes({ expirationDate: '11/26' })).toEqual(['expiration_date 81710']);
    expect(codes({ expirationDate: '12/2025' })).toEqual(['expiration_year 81713']);
    expect(codes({ expirationDate: '13/27' })).toEqual(['expiration_month 81712']);
    expect(codes({ expirationDate: undefined })).toEqual(['expiration_date 81709']);
    expect(codes({ postalCode: ' a1' })).toEqual(['postal_code 81813']);
    expect(codes({ postalCode: '#AB1' })).toEqual(['postal_code 81813']);
    expect(codes({ postalCode: '12345678901' })).toEqual(['postal_code 81809']);
    expect(codes({ cardholderName: '4111 1111' })).toEqual(['cardholder_name 81723']);
    expect(codes({ cardholderName: 'a'.repeat(256) })).toEqual(['cardholder_name 81723']);
    expect(codes({ number: '' })).toEqual(['number 81714']);
    expect(codes({ number: '4111a' })).toEqual(['number 81715']);
    expect(codes({ number: '41111' })).toEqual(['number 81716']);
    expect(codes({ number: '4111111111111112' })).toEqual(['number 81715']);
    expect(codes({ number: '6363680000457017' })).toEqual(['number 81703']); // Elo: valid, not taken
    expect(codes({ number: '41111111111111113' })).toEqual(['number 81716']); // Luhn-valid 17-digit Visa
  });
});
