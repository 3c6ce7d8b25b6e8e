import { describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { SandboxGateway } from './core/gateway.ts';
import { createMemoryStore } from './store/memory-store.ts';

describe('request logs', () => {
  it('carry method, path and status, never bodies nor query strings (card data, fingerprints)', async () => {
    const lines: string[] = [];
    const gateway = new SandboxGateway({ merchantId: 'm1', publicKey: 'pub', privateKey: 'priv', store: createMemoryStore() });
    gateway.origin = 'http://127.0.0.1:1';
    const app = await buildApp({ gateway, logger: 'info', logStream: { write: (line) => void lines.push(line) } });
    try {
      const generated = gateway.generateClientToken({});
      if (!generated.ok) throw new Error('no token');
      const { authorizationFingerprint } = JSON.parse(Buffer.from(generated.value, 'base64').toString('utf8')) as {
        authorizationFingerprint: string;
      };
      const response = await app.inject({
        method: 'POST',
        url: `/merchants/m1/client_api/v1/payment_methods/credit_cards?authorizationFingerprint=${authorizationFingerprint}`,
        payload: {
          authorizationFingerprint,
          creditCard: { number: '4111111111111111', expirationDate: `12/${new Date().getUTCFullYear() + 1}`, cvv: '987' },
        },
      });
      expect(response.statusCode).toBe(201);
      const log = lines.join('');
      expect(log).toContain('/merchants/m1/client_api/v1/payment_methods/credit_cards');
      expect(log).toContain('"statusCode":201');
      expect(log).not.toContain('4111111111111111');
      expect(log).not.toMatch(/cvv|creditCard|expirationDate/);
      expect(log).not.toContain(authorizationFingerprint.slice(0, 20));
    } finally {
      await app.close();
    }
  });
});
