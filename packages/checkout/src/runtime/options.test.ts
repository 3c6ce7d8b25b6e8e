import { describe, expect, it, vi } from 'vitest';
import { settingsFrom, type CheckoutOptions } from './options.ts';

describe('merchant options', () => {
  it('defaults to an optional name and clearing after tokenization', () => {
    expect(settingsFrom(undefined)).toEqual({ cardholderName: 'optional', clearFieldsAfterTokenization: true });
    expect(settingsFrom({ cardholderName: false, clearFieldsAfterTokenization: false })).toEqual({
      cardholderName: false,
      clearFieldsAfterTokenization: false,
    });
  });

  it('names the fix for a value a JavaScript caller got wrong', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const fromJs = JSON.parse('{"cardholderName": true}') as CheckoutOptions;
    expect(settingsFrom(fromJs).cardholderName).toBe('optional');
    expect(errors).toHaveBeenCalledWith(expect.stringContaining("must be 'optional', 'required' or false"));
    errors.mockRestore();
  });
});
