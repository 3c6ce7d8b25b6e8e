import { describe, expect, it } from 'vitest';
import { formatCardNumber, formatExpirationDate, validateField } from './validate.ts';

/** Types `keys` one at a time at the end of the field ('\b' is backspace), formatting after each, as the frame does. */
function type(keys: string, start = ''): string {
  let value = start;
  for (const key of keys) {
    const deleting = key === '\b';
    value = formatExpirationDate(deleting ? value.slice(0, -1) : `${value}${key}`, deleting);
  }
  return value;
}

describe('expiry formatting', () => {
  it('formats "MM / YY" as typed', () => {
    expect(formatExpirationDate('', false)).toBe('');
    expect(formatExpirationDate('1', false)).toBe('1');
    expect(formatExpirationDate('3', false)).toBe('03 / ');
    expect(formatExpirationDate('12', false)).toBe('12 / ');
    expect(formatExpirationDate('12 / 2', false)).toBe('12 / 2');
    expect(formatExpirationDate('1228', false)).toBe('12 / 28');
    expect(formatExpirationDate('12/2030', false)).toBe('12 / 2030');
    expect(formatExpirationDate('12 / 20301', false)).toBe('12 / 2030');
    // Backspace over the separator must not bring it back.
    expect(formatExpirationDate('12 /', true)).toBe('12');
  });

  it('pads a one-digit month followed by a separator before reading the year', () => {
    expect(type('1/28')).toBe('01 / 28');
    expect(type('1/2028')).toBe('01 / 2028');
    expect(type('1 28')).toBe('01 / 28');
    expect(type('1-28')).toBe('01 / 28');
    expect(formatExpirationDate('1/2028', false)).toBe('01 / 2028'); // pasted
    expect(formatExpirationDate('1/28', false)).toBe('01 / 28');
    expect(formatExpirationDate(' 1 / 28', false)).toBe('01 / 28');
    expect(formatExpirationDate('1/', false)).toBe('01 / ');
    expect(type('12/28')).toBe('12 / 28');
    expect(type('1228')).toBe('12 / 28');
  });

  it('reads a first digit 2-9 as month 0N', () => {
    expect(type('4')).toBe('04 / ');
    expect(type('428')).toBe('04 / 28');
    expect(type('9/2030')).toBe('09 / 2030');
    expect(type('0')).toBe('0');
    expect(type('1')).toBe('1');
  });

  it('lets backspace delete everything without re-adding the separator', () => {
    expect(type('\b', '12 / ')).toBe('12');
    expect(type('\b\b', '12 / ')).toBe('1');
    expect(type('\b\b\b', '12 / ')).toBe('');
    expect(type('\b\b', '01 / 28')).toBe('01');
    expect(type('\b\b\b', '01 / 28')).toBe('0');
    expect(type('\b\b', '04 / ')).toBe('0');
    expect(type('\b\b\b', '04 / ')).toBe('');
    // Deleting the second month digit in the middle keeps the year a year.
    expect(formatExpirationDate('1 / 28', true)).toBe('1 / 28');
    expect(formatExpirationDate('4', true)).toBe('4');
  });
});

describe('validateField', () => {
  it('applies the shared rules with the given time', () => {
    const now = new Date('2026-06-15T12:00:00Z');
    expect(validateField('expirationDate', '06 / 26', null, now).isValid).toBe(true);
    expect(validateField('expirationDate', '05 / 26', null, now).isValid).toBe(false);
    expect(validateField('postalCode', '#AB1', null, now).isValid).toBe(false);
    expect(validateField('cvv', '1234', 3, now).isValid).toBe(false);
    expect(validateField('cardholderName', '4111 1111', null, now).isValid).toBe(false);
    expect(validateField('number', '4111111111111111', null, now).isValid).toBe(true);
  });

  it('judges every empty field potentially valid, not valid: what field.ts reports before the rules are in', () => {
    for (const field of ['number', 'expirationDate', 'cvv', 'cardholderName', 'postalCode'] as const)
      for (const size of [null, 3, 4] as const)
        expect(validateField(field, '', size)).toMatchObject({ isValid: false, isPotentiallyValid: true });
  });
});

describe('card number formatting', () => {
  const at = (value: string) => formatCardNumber(value, value.length);

  it('groups the digits as the brand prints them', () => {
    expect(at('4111111111111111')).toEqual({ value: '4111 1111 1111 1111', caret: 19 });
    expect(at('378282246310005')).toEqual({ value: '3782 822463 10005', caret: 17 });
    expect(at('36259600000004').value).toBe('3625 960000 0004');
    expect(at('4111')).toEqual({ value: '4111', caret: 4 });
    expect(at('41111').value).toBe('4111 1');
  });

  it('drops anything but digits and stops at 19 digits', () => {
    expect(at('4111-1111 abc 1111.1111').value).toBe('4111 1111 1111 1111');
    expect(at('6304000000000000000123').value.replace(/ /g, '')).toHaveLength(19);
  });

  it('keeps the caret after the same digit when typing in the middle', () => {
    // "4111 |1111" + "2" typed at the caret: the caret stays right after the new digit.
    expect(formatCardNumber('4111 21111', 6)).toEqual({ value: '4111 2111 1', caret: 6 });
    // Deleting the digit before a space keeps the caret before the next group.
    expect(formatCardNumber('411 1111', 3)).toEqual({ value: '4111 111', caret: 3 });
    expect(formatCardNumber('', 0)).toEqual({ value: '', caret: 0 });
  });
});
