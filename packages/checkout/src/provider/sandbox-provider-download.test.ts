import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OPTION_LOAD_TIMEOUT_MS } from '../runtime/in-time.ts';
import { gatewayConfiguration, paymentMethodResult } from '../testing/fixtures.ts';
import { createSandboxProvider, parseSavedMethods } from './sandbox-provider.ts';

// The network holds the downloads of the provider client's modules imported on demand: each import neither arrives nor
// fails (vi.mock is hoisted above the file's own declarations: each factory is written out). Each is imported once: the
// module runner keeps one import call stack per importing module (vite's directRequest), vitest's mocker puts the mocked
// module on it while its factory runs (here, for good), and a second import of that module from sandbox-provider.ts
// then looks like the factory importing its own module and gets the real one (requestWithMockedModule: "this will not
// work if user does Promise.all(import(), import())"); so the earlier test of http-failures.ts's import failed now and
// then, when the saved methods' list's error answer imported it first.
vi.mock('./http-failures.ts', () => new Promise(() => {}));
vi.mock('./method-result.ts', () => new Promise(() => {}));
vi.mock('./sandbox-wallets.ts', () => new Promise(() => {}));
vi.mock('./sandbox-three-d-secure.ts', () => new Promise(() => {}));

const encoded = btoa(
  JSON.stringify({
    version: 2,
    authorizationFingerprint: 'fp.signed',
    configUrl: 'http://127.0.0.1:8090/merchants/m1/client_api/v1/configuration',
    clientApiUrl: 'http://127.0.0.1:8090/merchants/m1/client_api',
    assetsUrl: 'http://127.0.0.1:8090',
  }),
);
// The configuration's request answers an error; the saved methods' list, asked for beside it, does not: its own error
// answer would import http-failures.ts a second time, at once (above).
const provider = createSandboxProvider(encoded, async (input) =>
  String(input).includes('/v1/configuration') ? new Response('{}', { status: 503 }) : Response.json({ paymentMethods: [] }),
);
const config = gatewayConfiguration();
const signal = new AbortController().signal;

/** `promise`'s outcome once it has one, its value or its error; null until then. */
function outcomeOf(promise: Promise<unknown>): () => unknown {
  let outcome: unknown = null;
  promise.then(
    (value) => {
      outcome = value;
    },
    (error: unknown) => {
      outcome = error;
    },
  );
  return () => outcome;
}

/** Runs the clock to just before the parts' time limit (nothing yet), then to it: `outcome` then. */
async function atTheLimit(outcome: () => unknown): Promise<unknown> {
  await vi.advanceTimersByTimeAsync(OPTION_LOAD_TIMEOUT_MS - 1);
  expect(outcome()).toBeNull();
  await vi.advanceTimersByTimeAsync(1);
  return outcome();
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the sandbox provider's modules whose download stalls end at the parts' time limit as failed ones", () => {
  it('a gateway error answer (its meaning imported on demand): the network failure a failed import gives', async () => {
    const failed = await atTheLimit(outcomeOf(provider.getConfiguration(signal)));
    expect(failed).toMatchObject({
      info: { code: 'network' },
      message: 'The gateway answered the configuration request with HTTP 503.',
    });
  });

  it("a saved methods' list holding any (its reader imported on demand): the list fails, as when the import fails", async () => {
    const list = {
      paymentMethods: [
        { type: 'PayPalAccount', nonce: 'pp-1', details: { email: 'a@example.com' } },
        { type: 'CreditCard', nonce: 'cc-1', details: { lastFour: '1111' } },
      ],
    };
    expect(String(await atTheLimit(outcomeOf(parseSavedMethods(list))))).toBe('Error: timed out');
  });

  it("a wallet's approval and 3-D Secure at Pay (their flows imported on demand): a failed outcome", async () => {
    const approval = provider.approveWallet({
      option: 'paypal',
      amount: '12.00',
      config,
      surface: { kind: 'provider' },
      signal,
    });
    expect(await atTheLimit(outcomeOf(approval))).toEqual({ kind: 'failed', detail: 'Error: timed out' });
    const verification = provider.verifyThreeDSecure({
      card: paymentMethodResult,
      amount: '12.00',
      config,
      showChallenge: () => {},
      signal,
    });
    expect(await atTheLimit(outcomeOf(verification))).toEqual({ kind: 'failed', detail: 'Error: timed out' });
  });
});

describe("the saved methods' reader, imported on demand", () => {
  it("is not imported for a guest's empty list, which is read at once (its download held here)", async () => {
    const read = outcomeOf(parseSavedMethods({ paymentMethods: [] }));
    await vi.advanceTimersByTimeAsync(0);
    expect(read()).toEqual([]);
  });
});
