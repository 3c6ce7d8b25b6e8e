import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../index.ts';
import { METRICS_PATH } from '../plugins/metrics.ts';
import { OPENAPI_PATH } from '../plugins/openapi.ts';
import { TestClient } from '../testing/client.ts';
import { testConfig } from '../testing/config.ts';
import { ENGINES } from '../testing/engines.ts';
import { sandboxPerFile } from '../testing/sandbox.ts';

// Issue 10's fuzz, property-based (fast-check): generated requests to every route of the OpenAPI document, as an
// attacker sends them: params, query, headers and bodies holding NUL characters, lone surrogates, huge numbers, wrong
// types, the route's own field names with any value, and sometimes a real session (a guest's, a signed-in shopper's or
// an admin's, so the admin routes and the signed-in ones are tried past their guards) and a real id (an order, a
// payment). Whatever comes in, the answer is never a 5xx, and every error is a problem+json document with a code.
// `FUZZ_RUNS` sets the number of requests per engine (npm test: 300; `npm run test:reliability`: 100,000).

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 300);
/** A request still unanswered after this long is a hang (the issue: no 5xx, no hang), named with its route. */
const HANG_MS = 10_000;

async function answeredInTime<T>(answer: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${HANG_MS} ms (a hang)`)), HANG_MS);
  });
  try {
    return await Promise.race([answer, hang]);
  } finally {
    clearTimeout(timer);
  }
}

interface Route {
  method: string;
  path: string;
  /** The body's member names, from the route's schema. */
  fields: string[];
}

/** Text an attacker would try: NUL, lone surrogates, control and right-to-left characters, long runs. */
const nastyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\uD800',
    'x\uDFFFy',
    '\u202E',
    '%00',
    '../../etc/passwd',
    "' or 1=1 --",
    'ord_\u0000',
    '𝄞',
  ),
  fc.string({ maxLength: 4 }).map((s) => s.repeat(300)),
);
/** A path segment replaced by one of the real ids (an order of the session's, a paid payment). */
const REAL_ID = 'real-id';
/** Who sends a request: nobody signed in (with or without a guest session), a signed-in shopper, an admin. */
type Visitor = 'guest' | 'shopper' | 'admin';
const SIGN_IN: Record<Exclude<Visitor, 'guest'>, { email: string; password: string }> = {
  shopper: { email: 'shopper@kassa.test', password: 'kassa-demo-shopper' },
  admin: { email: 'admin@kassa.test', password: 'kassa-demo-admin' },
};

/** Only what HTTP carries: anything else (control characters, non-ASCII) as a visible placeholder. */
const onTheWire = (text: string): string => text.replace(/[^\x21-\x7e]/g, '_');
/** A path segment as an attacker writes it: any text percent-encoded, or encodings that decode to nothing valid. */
const pathSegment = fc.oneof(
  nastyText.map((text) => encodeURIComponent(text.replace(/[\uD800-\uDFFF]/g, '\uFFFD'))),
  fc.constantFrom('%00', '%ED%A0%80', '%FF', '%C0%80', '%', '%2F..%2F', REAL_ID),
);
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyText,
  fc.integer(),
  fc.double(),
  fc.constantFrom(null, true, false, 1e308, -1, 0, Number.MAX_SAFE_INTEGER + 2),
  fc.array(nastyText, { maxLength: 3 }),
  fc.dictionary(nastyText, nastyText, { maxKeys: 3 }),
);

const sandbox = sandboxPerFile();

describe.each(ENGINES.map((make) => [make().name, make] as const))('fuzzing every route on %s', (_name, make) => {
  const engine = make();
  let app: FastifyInstance;
  let cleanup: () => Promise<void>;
  let routes: Route[];
  /** Each visitor's session cookie, made again when a request ends it (a sign-out). */
  const cookies = new Map<Visitor, string>();
  /** The real ids a path may carry: each visitor's order, and a paid payment (the admin's routes take it). */
  const realIds = new Map<string, string>();
  let signIns = 0;

  /**
   * A fresh session for `visitor`, with an order of its own; signed in from an address of its own (the fuzz's failed
   * sign-ins count against 127.0.0.1, and an order per session is bounded per address too).
   */
  const startSession = async (visitor: Visitor): Promise<TestClient> => {
    signIns += 1;
    const client = new TestClient(app, `198.51.100.${signIns % 250}`);
    if (visitor !== 'guest') expect((await client.post('/api/session', SIGN_IN[visitor])).statusCode).toBe(200);
    const order = await client.post('/api/orders', { items: [{ productId: 'prd_mug', quantity: 1 }] });
    expect(order.statusCode).toBe(201);
    realIds.set(`${visitor} order`, order.json<{ order: { id: string } }>().order.id);
    cookies.set(visitor, client.cookie ?? '');
    return client;
  };

  beforeAll(async () => {
    await engine.setup();
    const opened = await engine.open();
    app = await buildApp(testConfig(opened.config, sandbox.gateway));
    cleanup = async () => {
      await app.close();
      await opened.cleanup();
    };
    const document = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<
        string,
        Record<string, { requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } }>
      >;
    }>();
    routes = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations).map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        fields: Object.values(operation.requestBody?.content ?? {}).flatMap((content) =>
          Object.keys(content.schema?.properties ?? {}),
        ),
      })),
    );
    // The routes the document leaves out of itself: the metrics and the document.
    routes.push(...[METRICS_PATH, OPENAPI_PATH].map((path) => ({ method: 'GET', path, fields: [] })));
    await startSession('guest');
    await startSession('admin');
    // The shopper pays its order: a payment for the admin's routes (refund, void, its timeline) to act on.
    const shopper = await startSession('shopper');
    const paid = await shopper.post(
      `/api/orders/${realIds.get('shopper order')}/payments`,
      { nonce: 'fake-valid-visa-nonce', botcheck: await shopper.botcheckToken() },
      { 'idempotency-key': 'fuzz-paid-order' },
    );
    expect(paid.statusCode, paid.body).toBe(201);
    realIds.set('payment', paid.json<{ payment: { id: string } }>().payment.id);
    await startSession('shopper'); // an order still to pay
  });
  afterAll(async () => {
    await cleanup?.();
    await engine.teardown();
  });

  it(
    `answers ${RUNS} generated requests, each within ${HANG_MS / 1000} s, with no 5xx, every error a problem+json with a code`,
    async () => {
      const request = fc.record({
        route: fc.integer({ min: 0, max: 10_000 }),
        param: pathSegment,
        query: fc.dictionary(fc.constantFrom('status', 'from', 'cursor', 'limit', 'action', 'q', 'minAmount', 'x'), nastyText, {
          maxKeys: 3,
        }),
        body: fc.oneof(
          fc.constant(undefined),
          anyValue,
          fc
            .nat()
            .chain((seed) =>
              fc.dictionary(
                fc.constantFrom('nonce', 'email', 'password', 'items', 'botcheck', 'name', 'planId', `f${seed % 5}`),
                anyValue,
                { maxKeys: 5 },
              ),
            ),
        ),
        fieldsFromSchema: fc.boolean(),
        fieldValues: fc.array(anyValue, { minLength: 8, maxLength: 8 }),
        visitor: fc.constantFrom<Visitor | null>(null, 'guest', 'shopper', 'admin'),
        realId: fc.nat(),
        key: fc.option(nastyText),
        contentType: fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain', undefined),
      });
      /** Requests each visitor sent that its session took past the route's guard (not 401 or 403). */
      const pastGuard = { guest: 0, shopper: 0, admin: 0 };
      await fc.assert(
        fc.asyncProperty(request, async (input) => {
          const route = routes[input.route % routes.length];
          if (route === undefined) return;
          const ids = [...realIds.values()];
          const param = input.param === REAL_ID ? (ids[input.realId % ids.length] ?? '') : input.param;
          const path = route.path.replace(/\{[^}]+\}/g, () => param);
          const query = new URLSearchParams(
            Object.entries(input.query).map(([name, text]) => [name, text.replace(/[\uD800-\uDFFF]/g, '\uFFFD')]),
          ).toString();
          const body = input.fieldsFromSchema
            ? Object.fromEntries(route.fields.map((field, i) => [field, input.fieldValues[i % 8]]))
            : input.body;
          const headers: Record<string, string> = {};
          if (input.contentType !== undefined) headers['content-type'] = input.contentType;
          if (input.visitor !== null) headers['cookie'] = cookies.get(input.visitor) ?? '';
          // Header values cannot carry control characters on the wire: only what HTTP allows is sent.
          if (input.key !== null) headers['idempotency-key'] = onTheWire(input.key).slice(0, 300);
          const response = await answeredInTime(
            app.inject({
              method: route.method as 'GET',
              url: query === '' ? path : `${path}?${query}`,
              headers,
              ...(body === undefined || route.method === 'GET'
                ? {}
                : {
                    payload: typeof body === 'string' && input.contentType !== 'application/json' ? body : JSON.stringify(body),
                  }),
            }),
            `${route.method} ${path}`,
          );
          const context = `${input.visitor ?? 'no session'}: ${route.method} ${path} -> ${response.statusCode} ${response.body.slice(0, 200)}`;
          expect(response.statusCode, context).toBeLessThan(500);
          if (response.statusCode >= 400) {
            expect(response.headers['content-type'], context).toMatch(/^application\/problem\+json/);
            expect(typeof response.json<{ code?: unknown }>().code, context).toBe('string');
          }
          if (input.visitor === null) return;
          if (![401, 403].includes(response.statusCode)) pastGuard[input.visitor] += 1;
          // A sign-out ended the session: the next requests of that visitor get a new one.
          if (response.cookies.some((cookie) => cookie.name === 'kassa_session' && cookie.value === '')) {
            await startSession(input.visitor);
          }
        }),
        { numRuns: RUNS },
      );
      // The sessions did their part: each visitor's requests reached routes past their guards (an admin session
      // that stopped working would leave the admin routes fuzzed at their 401 again).
      console.log(`fuzz on ${engine.name}: ${RUNS} requests; past the guards: ${JSON.stringify(pastGuard)}`);
      expect(Math.min(pastGuard.guest, pastGuard.shopper, pastGuard.admin)).toBeGreaterThan(0);
      // 100,000 requests (npm run test:reliability) take longer than a fixed limit on a loaded machine.
    },
    Math.max(600_000, RUNS * 20),
  );
});
