import { describe, expect, it } from 'vitest';
import { isSandboxGateway } from './config.routes.ts';

describe('isSandboxGateway', () => {
  const keys = { merchantId: 'm', publicKey: 'p', privateKey: 'k' };

  it('is true for Kassa’s sandbox (a gateway at a host) and Braintree’s sandbox, false for production or none', () => {
    expect(isSandboxGateway({ kind: 'custom', host: '127.0.0.1', port: 8090, ssl: false, ...keys })).toBe(true);
    expect(isSandboxGateway({ kind: 'braintree', environment: 'sandbox', ...keys })).toBe(true);
    expect(isSandboxGateway({ kind: 'braintree', environment: 'production', ...keys })).toBe(false);
    expect(isSandboxGateway(null)).toBe(false);
  });
});
