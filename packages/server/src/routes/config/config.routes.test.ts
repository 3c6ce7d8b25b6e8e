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
  const token = (claims: object): string => Buffer.from(JSON.stringify(claims)).toString('base64');

  it("is the card field page at the client token's assetsUrl, when GATEWAY_ORIGIN lets the shop frame it", () => {
    const origins = ['https://api.gateway.example', 'https://assets.gateway.example'];
    expect(cardFieldsPage(token({ assetsUrl: 'https://assets.gateway.example' }), origins)).toBe(
      'https://assets.gateway.example/hosted-fields/frame.html',
    );
    expect(cardFieldsPage(token({ assetsUrl: 'https://elsewhere.example' }), origins)).toBeNull();
    expect(cardFieldsPage(token({}), origins)).toBeNull();
    expect(cardFieldsPage('not a token', origins)).toBeNull();
  });
});
