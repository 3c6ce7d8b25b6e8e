import type braintree from 'braintree';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../index.ts';
import type { FaultSpec, FaultStatus, Sandbox } from '../index.ts';
import { gatewayFor, startSandboxWithClient } from '../testing/sandbox.ts';
import type { ClientToken } from '../testing/sandbox.ts';

// Fault injection reaches the clients the way a failing gateway would: the browser's fetch (client API) and the
// official SDK (server API), over real sockets.

let sandbox: Sandbox;
let gateway: braintree.BraintreeGateway;
let token: ClientToken;

beforeAll(async () => {
  ({ sandbox, gateway, token } = await startSandboxWithClient());
});
afterAll(async () => {
  await sandbox.close();
});
afterEach(() => {
  sandbox.faults.clear();
});

const configuration = (signal?: AbortSignal): Promise<Response> =>
  fetch(`${token.configUrl}?authorizationFingerprint=${encodeURIComponent(token.authorizationFingerprint)}`, {
    headers: { origin: 'http://shop.example' },
    ...(signal === undefined ? {} : { signal }),
  });

const tokenize = (): Promise<Response> =>
  fetch(`${token.clientApiUrl}/v1/payment_methods/credit_cards`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'http://shop.example' },
    body: JSON.stringify({
      authorizationFingerprint: token.authorizationFingerprint,
      creditCard: { number: '4111111111111111', expirationDate: `12/${new Date().getUTCFullYear() + 1}`, cvv: '123' },
    }),
  });

const sale = (): Promise<braintree.ValidatedResponse<braintree.Transaction>> =>
  gateway.transaction.sale({ amount: '10.00', paymentMethodNonce: 'fake-valid-nonce' });

/** The rejection of a promise that must fail (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<Error & { type?: string; cause?: unknown }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { type?: string };
  }
  throw new Error('expected a failure');
}

describe('client API faults (what the checkout sees)', () => {
  it.each([401, 403, 429, 500, 503] as const)(
    '%i on the configuration: that status, JSON error, CORS; the next request is normal',
    async (status) => {
      sandbox.faults.inject({ target: 'configuration', fault: { type: 'status', status } });
      const failed = await configuration();
      expect(failed.status).toBe(status);
      expect(failed.headers.get('access-control-allow-origin')).toBe('*');
      expect(((await failed.json()) as { error: { message: string } }).error.message).toMatch(/\w/);
      expect(failed.headers.get('retry-after')).toBe(status === 429 ? '1' : null);
      expect((await configuration()).status).toBe(200);
    },
  );

  it('429 carries the Retry-After it was given', async () => {
    sandbox.faults.inject({ target: 'tokenization', fault: { type: 'status', status: 429, retryAfter: 7 } });
    const failed = await tokenize();
    expect(failed.status).toBe(429);
    expect(failed.headers.get('retry-after')).toBe('7');
  });

  it('targets only its kind: a tokenization fault leaves the configuration alone', async () => {
    sandbox.faults.inject({ target: 'tokenization', fault: { type: 'status', status: 500 } });
    expect((await configuration()).status).toBe(200);
    expect((await tokenize()).status).toBe(500);
    expect((await tokenize()).status).toBe(201);
  });

  it('fails the next N requests, then stops and removes the rule', async () => {
    const rule = sandbox.faults.inject({ target: 'client_api', fault: { type: 'status', status: 503 }, count: 2 });
    expect(rule).toMatchObject({ id: expect.stringMatching(/^fault_/), remaining: 2, injected: 0 });
    expect([(await configuration()).status, (await tokenize()).status, (await configuration()).status]).toEqual([503, 503, 200]);
    expect(sandbox.faults.list()).toEqual([]);
  });

  it('fails a share of the requests, evenly and until cleared', async () => {
    sandbox.faults.inject({ target: 'configuration', fault: { type: 'status', status: 500 }, share: 0.5 });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await configuration()).status);
    expect(statuses).toEqual([200, 500, 200, 500, 200, 500]);
    expect(sandbox.faults.list()[0]).toMatchObject({ remaining: null, injected: 3 });
  });

  it('delays the answer by the given time, then answers normally', async () => {
    sandbox.faults.inject({ target: 'configuration', fault: { type: 'delay', ms: 400 } });
    const started = performance.now();
    const response = await configuration();
    expect(response.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
  });

  it('a time-out never answers: the client gives up on its own', async () => {
    sandbox.faults.inject({ target: 'configuration', fault: { type: 'timeout' } });
    const error = await rejection(configuration(AbortSignal.timeout(300)));
    expect(error.name).toBe('TimeoutError');
    expect((await configuration()).status).toBe(200);
  });

  it('a dropped connection is a network error, as when the gateway cannot be reached', async () => {
    sandbox.faults.inject({ target: 'tokenization', fault: { type: 'drop' } });
    const error = await rejection(tokenize());
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('fetch failed');
    expect((await tokenize()).status).toBe(201);
  });

  it('leaves preflight requests alone (the browser sees the failure on the call itself)', async () => {
    sandbox.faults.inject({ target: 'tokenization', fault: { type: 'status', status: 500 } });
    const preflight = await fetch(`${token.clientApiUrl}/v1/payment_methods/credit_cards`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect((await tokenize()).status).toBe(500);
  });

  it('hosted pages can fail too (target pages)', async () => {
    sandbox.faults.inject({ target: 'pages', path: '/frame\\.js$', fault: { type: 'status', status: 503 } });
    expect((await fetch(`${sandbox.origin}/hosted-fields/frame.html`)).status).toBe(200);
    expect((await fetch(`${sandbox.origin}/hosted-fields/frame.js`)).status).toBe(503);
  });
});

describe('server API faults (what the official SDK throws)', () => {
  const thrown: Record<FaultStatus, string> = {
    401: 'authenticationError',
    403: 'authorizationError',
    429: 'tooManyRequestsError',
    500: 'serverError',
    503: 'serviceUnavailableError',
  };

  it.each(Object.entries(thrown))('%s -> the SDK throws %s', async (status, type) => {
    sandbox.faults.inject({ target: 'server_api', fault: { type: 'status', status: Number(status) as FaultStatus } });
    expect((await rejection(sale())).type).toBe(type);
    expect((await sale()).success).toBe(true);
  });

  it('matches by method and path: only transaction.sale fails, client tokens still come', async () => {
    sandbox.faults.inject({
      target: 'server_api',
      method: 'post',
      path: '/transactions$',
      fault: { type: 'status', status: 500 },
    });
    expect((await gateway.clientToken.generate({})).success).toBe(true);
    expect((await rejection(sale())).type).toBe('serverError');
  });

  it('a dropped connection and a time-out reach the SDK as its unexpected errors', async () => {
    sandbox.faults.inject({ target: 'server_api', fault: { type: 'drop' } });
    const dropped = await rejection(sale());
    expect(dropped.type).toBe('unexpectedError');
    expect(dropped.message).toMatch(/socket hang up|ECONNRESET/);

    sandbox.faults.inject({ target: 'server_api', fault: { type: 'timeout' } });
    const impatient = gatewayFor(sandbox);
    // The SDK's own time-out (60 s by default) is a plain property of its config.
    (impatient as unknown as { config: { timeout: number } }).config.timeout = 300;
    const timedOut = await rejection(impatient.transaction.sale({ amount: '10.00', paymentMethodNonce: 'fake-valid-nonce' }));
    expect(timedOut.type).toBe('unexpectedError');
    expect(timedOut.message).toBe('Request timed out');
  });

  it('refuses a bad rule with every problem named', () => {
    const bad = { target: 'everything', fault: { type: 'status', status: 418 }, share: 2 } as unknown as FaultSpec;
    expect(() => sandbox.faults.inject(bad)).toThrow(
      /target must be one of .*; share must be a number in \(0, 1\]; fault.status must be one of 401, 403, 429, 500, 503/,
    );
  });
});

describe('the HTTP control endpoint (testControls)', () => {
  it('is absent unless the sandbox starts with testControls', async () => {
    const response = await fetch(`${sandbox.origin}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ target: 'any', fault: { type: 'drop' } }),
    });
    expect(response.status).toBe(404);
    expect(sandbox.faults.list()).toEqual([]);
  });

  it('adds, lists, removes and clears rules, and explains a bad one', async () => {
    const controlled = await startSandbox({ testControls: true });
    try {
      const url = `${controlled.origin}/__sandbox/faults`;
      const post = (body: unknown): Promise<Response> =>
        fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

      const created = await post({ target: 'server_api', fault: { type: 'status', status: 429, retryAfter: 2 }, count: 3 });
      expect(created.status).toBe(201);
      const { fault } = (await created.json()) as { fault: { id: string } };
      expect(fault).toMatchObject({ target: 'server_api', remaining: 3, injected: 0 });
      const thrown = await rejection(gatewayFor(controlled).clientToken.generate({}));
      expect(thrown.type).toBe('tooManyRequestsError');
      expect(((await (await fetch(url)).json()) as { faults: unknown[] }).faults).toEqual([
        expect.objectContaining({ id: fault.id, remaining: 2, injected: 1 }),
      ]);
      expect((await fetch(`${url}/${fault.id}`, { method: 'DELETE' })).status).toBe(204);
      expect((await fetch(`${url}/${fault.id}`, { method: 'DELETE' })).status).toBe(404);

      await post({ target: 'any', fault: { type: 'drop' }, share: 1 });
      expect((await fetch(url, { method: 'DELETE' })).status).toBe(204);
      expect(controlled.faults.list()).toEqual([]);

      const refused = await post({ target: 'tokenization', fault: { type: 'delay', ms: -1 }, count: 0 });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({
        error: {
          message: 'Invalid fault',
          problems: ['count must be an integer >= 1', 'fault.ms must be an integer number of milliseconds, 0 to 600000'],
        },
      });
    } finally {
      await controlled.close();
    }
  });

  it('closing the sandbox ends connections held by a time-out', async () => {
    const controlled = await startSandbox();
    controlled.faults.inject({ target: 'any', fault: { type: 'timeout' } });
    const pending = fetch(`${controlled.origin}/hosted-fields/frame.html`).catch((error: unknown) => error);
    // Held once its rule fired (its one count spent, the rule is gone): a fixed wait let a busy machine close first.
    while (controlled.faults.list().length > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const started = performance.now();
    await controlled.close();
    expect(performance.now() - started).toBeLessThan(2000);
    expect(await pending).toBeInstanceOf(TypeError);
  });
});
