import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { contentSecurityPolicy, registerSecurityHeaders } from './security-headers.ts';

describe('contentSecurityPolicy', () => {
  it("allows a third-party bot-check's origin for its script, frames, styles and calls, and nothing inline", () => {
    const policy = contentSecurityPolicy(['http://127.0.0.1:8090'], ['https://challenges.cloudflare.com']);
    expect(policy['script-src']).toEqual(["'self'", 'https://challenges.cloudflare.com']);
    expect(policy['frame-src']).toEqual(['http://127.0.0.1:8090', 'https://challenges.cloudflare.com']);
    expect(policy['style-src']).toEqual(["'self'", 'https://challenges.cloudflare.com']);
    expect(policy['connect-src']).toEqual(["'self'", 'http://127.0.0.1:8090', 'https://challenges.cloudflare.com']);
    expect(JSON.stringify(policy)).not.toMatch(/unsafe-inline|unsafe-eval/);
  });

  it('with ALTCHA and no gateway: scripts from the shop only, no frames at all', () => {
    const policy = contentSecurityPolicy([]);
    expect(policy['script-src']).toEqual(["'self'"]);
    expect(policy['frame-src']).toEqual(["'none'"]);
  });
});

describe('registerSecurityHeaders', () => {
  const headersOf = async (env: Record<string, string>) => {
    const app = Fastify();
    registerSecurityHeaders(app, loadConfig({ LOG_LEVEL: 'silent', ...env }));
    app.get('/', async () => 'ok');
    const response = await app.inject({ method: 'GET', url: '/' });
    await app.close();
    return response.headers;
  };

  it('sends HSTS only when the public URL is https', async () => {
    const https = await headersOf({ PUBLIC_URL: 'https://shop.example' });
    expect(https['strict-transport-security']).toMatch(/^max-age=\d+; includeSubDomains$/);
    expect(https['x-frame-options']).toBe('DENY');
    expect((await headersOf({}))['strict-transport-security']).toBeUndefined();
  });
});
