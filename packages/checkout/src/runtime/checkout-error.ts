import type { CheckoutErrorCode } from '../machine/checkout.types.ts';

/** What onError receives and requestPaymentMethod() rejects with: a stable code and a readable message. */
export class CheckoutError extends Error {
  readonly code: CheckoutErrorCode;
  constructor(code: CheckoutErrorCode, message: string) {
    super(message);
    this.name = 'CheckoutError';
    this.code = code;
  }
}
