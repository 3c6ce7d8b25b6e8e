import { describe, expect, it } from 'vitest';
import { cardFieldsPage, isSandboxGateway } from './config.routes.ts';

describe('isSandboxGateway', () => {
  const keys = { merchantId: 'm', publicKey: 'p', privateKey: 'k' };

  it('is true for Kassa’s sandbox (a gateway at a host) and Braintree’s sandbox, false for production or none', () => {
    expect(isSandboxGateway({ kind: 'custom', host: '127.0.0.1', port: 8090, ssl: false, ...keys })).toBe(true);
    expect(isSandboxGateway({ kind: 'braintree', environment: 'sandbox', ...keys })).toBe(true);
    expect(isSandboxGateway({ kind: 'braintree', environment: 'production', ...keys })).toBe(false);
    expect(isSandboxGateway(null)).toBe(false);
  });
});

describe('cardFieldsPage', () => {
  const keys = { merchantId: 'm', publicKey: 'p', privateKey: 'k' };

  it('is the card field page at the gateway’s browser origin for a gateway at a host, none for Braintree or no gateway', () => {
    const custom = { kind: 'custom' as const, host: '127.0.0.1', port: 8090, ssl: false, ...keys };
    expect(cardFieldsPage({ gateway: custom, gatewayOrigins: ['https://gateway.example'] })).toBe(
      'https://gateway.example/hosted-fields/frame.html',
    );
    const braintree = { kind: 'braintree' as const, environment: 'sandbox' as const, ...keys };
    expect(cardFieldsPage({ gateway: braintree, gatewayOrigins: ['https://assets.braintreegateway.com'] })).toBeNull();
    expect(cardFieldsPage({ gateway: null, gatewayOrigins: [] })).toBeNull();
  });
});
