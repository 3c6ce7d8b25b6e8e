import { describe, expect, it } from 'vitest';
import { declineMessage, problemMessage } from './messages.ts';

describe('messages for server answers', () => {
  it('names the processor response of a decline', () => {
    expect(
      declineMessage({ reason: 'processor_declined', processorResponseCode: '2000', processorResponseText: 'Do Not Honor' }),
    ).toBe('Your card was declined (Do Not Honor). Please try another card.');
    expect(declineMessage({ reason: 'processor_unavailable' })).toMatch(/No money was taken/);
    expect(declineMessage({ reason: 'currency_mismatch' })).toMatch(
      /^This shop cannot take card payments right now\. No money was taken/,
    );
  });

  it('maps problem codes, field errors and unknown codes', () => {
    expect(problemMessage({ status: 0, code: 'network_error' })).toBe('Network error. Please try again.');
    expect(
      problemMessage({
        status: 400,
        code: 'validation_failed',
        errors: [{ field: 'email', code: 'invalid', message: 'Enter a valid email.' }],
      }),
    ).toBe('Enter a valid email.');
    expect(problemMessage({ status: 500, code: 'something_new' })).toBe('Something went wrong. Please try again.');
  });
});
