import { describe, expect, it } from 'vitest';
import { buildApp } from '../../index.ts';
import { CARD_FIELDS_PAGE_WAIT_MS } from './config.routes.ts';
import { testConfig } from '../../testing/config.ts';
import { sqliteEngine } from '../../testing/engines.ts';
import { clearSandboxFaults, injectSandboxFault } from '../../../../sandbox/src/testing/faults-client.ts';
import { sandboxPerFile } from '../../testing/sandbox.ts';

// GET /api/config's card field page against the real sandbox: at the origin its client tokens name, whatever the order
// of GATEWAY_ORIGIN's origins.
describe('GET /api/config against the sandbox gateway', () => {
  const engine = sqliteEngine();
  const sandbox = sandboxPerFile({ env: { SANDBOX_TEST_CONTROLS: '1' } });

  /** GET /api/config's answers, `requests` of them to one app. */
  async function configWith(gatewayOrigins: string[], gateway = sandbox.gateway, requests = 1): Promise<unknown> {
    const opened = await engine.open();
    const app = await buildApp(testConfig(opened.config, gateway, { gatewayOrigins }), { database: opened.handle });
    try {
      const answers: unknown[] = [];
      for (let i = 0; i < requests; i += 1) answers.push((await app.inject({ method: 'GET', url: '/api/config' })).json());
      return requests === 1 ? answers[0] : answers;
    } finally {
      await app.close();
      await opened.cleanup();
    }
  }

  it("names the card field page at the gateway's assets origin, not at GATEWAY_ORIGIN's first origin", async () => {
    expect(await configWith(['https://analytics.gateway.example', sandbox.origin])).toEqual({
      sandbox: true,
      cardFieldsPage: `${sandbox.origin}/hosted-fields/frame.html`,
    });
  });

  it('names none when GATEWAY_ORIGIN leaves out the assets origin, or the gateway cannot be reached', async () => {
    expect(await configWith(['https://gateway.example'])).toEqual({ sandbox: true, cardFieldsPage: null });
    const closed = { ...sandbox.gateway, port: 1 };
    expect(await configWith([sandbox.origin], closed)).toEqual({ sandbox: true, cardFieldsPage: null });
  });

  it('asks the gateway again at the next request when its client token could not be made', async () => {
    await injectSandboxFault(sandbox.origin, {
      target: 'server_api',
      method: 'POST',
      path: '/client_token$',
      fault: { type: 'status', status: 500 },
    });
    expect(await configWith([sandbox.origin], sandbox.gateway, 2)).toEqual([
      { sandbox: true, cardFieldsPage: null },
      { sandbox: true, cardFieldsPage: `${sandbox.origin}/hosted-fields/frame.html` },
    ]);
  });

  it('answers without the page, within its wait, while the gateway does not answer the client token', async () => {
    await injectSandboxFault(sandbox.origin, {
      target: 'server_api',
      method: 'POST',
      path: '/client_token$',
      fault: { type: 'timeout' },
    });
    const started = performance.now();
    try {
      expect(await configWith([sandbox.origin])).toEqual({ sandbox: true, cardFieldsPage: null });
      expect(performance.now() - started).toBeLessThan(CARD_FIELDS_PAGE_WAIT_MS + 1_500);
    } finally {
      await clearSandboxFaults(sandbox.origin);
    }
  });
});
