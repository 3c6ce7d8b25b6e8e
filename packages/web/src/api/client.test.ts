import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, call, DEADLINE_MS } from './client.ts';

// A real HTTP server on this machine: the network holding a request is a server that never answers it (or stops
// halfway through its body). The deadlines are short here: the call takes its deadline as its first argument. Not
// before it: above a bound well under it, since Node starts a timer from its event loop's time, which can lag the clock
// by what the worker ran before in the same turn.
const routes: Record<string, (request: IncomingMessage, response: ServerResponse) => void> = {
  '/held': () => {},
  '/body-held': (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('{"order":');
  },
  '/answered': (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"order":{"id":"ord_1"}}');
  },
};
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((request, response) => routes[request.url ?? '']?.(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** How the call ended, and after how long. */
async function settle(promise: Promise<unknown>): Promise<{ outcome: unknown; ms: number }> {
  const started = performance.now();
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => (error instanceof ApiError ? error.problem : error),
  );
  return { outcome, ms: performance.now() - started };
}

describe('a call of the server', () => {
  it('that the server never answers is a network error at its deadline, as a dropped connection is', async () => {
    const { outcome, ms } = await settle(call(400, 'POST', `${base}/held`, {}, { 'idempotency-key': 'key-1' }));
    expect(outcome).toEqual({ status: 0, code: 'network_error' });
    expect(ms).toBeGreaterThan(150);
    expect(ms).toBeLessThan(3_000);
  });

  it('whose answer stops halfway through its body is a network error at its deadline, not an empty answer', async () => {
    const { outcome, ms } = await settle(call(400, 'GET', `${base}/body-held`));
    expect(outcome).toEqual({ status: 0, code: 'network_error' });
    expect(ms).toBeGreaterThan(150);
  });

  it('answered within its deadline is the answer', async () => {
    expect(await call(300, 'GET', `${base}/answered`)).toEqual({ order: { id: 'ord_1' } });
  });
});

describe('the deadlines', () => {
  it("of a call that may wait for the gateway outlasts the server's own wait for one gateway call (GATEWAY_TIMEOUT_SECONDS, at most 60 s) and a bot-check verification tried twice at its longest (BOTCHECK_VERIFY_TIMEOUT_MS, at most 10 s)", () => {
    // packages/server/src/config.ts: MAX_GATEWAY_TIMEOUT_SECONDS 60, MAX_BOTCHECK_VERIFY_TIMEOUT_MS 10000 (tried twice).
    expect(DEADLINE_MS.gateway).toBeGreaterThan(60_000 + 2 * 10_000);
    expect(DEADLINE_MS.server).toBeLessThan(DEADLINE_MS.gateway);
  });
});
