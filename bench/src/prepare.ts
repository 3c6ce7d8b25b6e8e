import { solveChallenge } from 'altcha-lib';
import type { Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { Pool } from 'undici';

/** Everything one payment request needs, made before the measured run so the run measures the payment alone. */
export interface PreparedPayment {
  orderId: string;
  cookie: string;
  nonce: string;
  botcheck: string;
  idempotencyKey: string;
  /** The shopper's address, as the proxy in front of Kassa reports it (each session its own, as shoppers have). */
  clientAddress: string;
}

/** The payment's request as a shop's page sends it, for an HTTP client or Fastify's `inject` alike. */
export function paymentRequest(payment: PreparedPayment): {
  path: string;
  headers: Record<string, string>;
  body: string;
} {
  return {
    path: `/api/orders/${payment.orderId}/payments`,
    headers: {
      'content-type': 'application/json',
      cookie: payment.cookie,
      'idempotency-key': payment.idempotencyKey,
      'x-forwarded-for': payment.clientAddress,
    },
    body: JSON.stringify({ nonce: payment.nonce, botcheck: payment.botcheck }),
  };
}

/** Orders per guest session: the session's client token tokenizes the cards of all of them. */
const ORDERS_PER_SESSION = 25;
const PRODUCT = 'prd_mug';

/**
 * A documentation-range address per session (198.18.0.0/15, set aside for benchmarks): shoppers pay from their own
 * addresses, so the per-address rules count one shopper's attempts, not the whole run's as from one address.
 */
export function clientAddress(session: number): string {
  return `198.${18 + ((session >> 16) & 1)}.${(session >> 8) & 255}.${session & 255}`;
}

/** A Luhn-valid Visa number, different for every `n` (the sandbox approves any such card). */
export function cardNumber(n: number): string {
  const body = `4111${String(n).padStart(11, '0')}`;
  let sum = 0;
  for (let i = 0; i < body.length; i += 1) {
    let digit = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return `${body}${(10 - (sum % 10)) % 10}`;
}

async function json<T>(
  pool: Pool,
  options: { method: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: unknown },
): Promise<{ body: T; cookie: string | undefined }> {
  const response = await pool.request({
    method: options.method,
    path: options.path,
    headers: { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.body.text();
  if (response.statusCode >= 300) throw new Error(`${options.method} ${options.path}: ${response.statusCode} ${text}`);
  const setCookie = response.headers['set-cookie'];
  const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  return { body: JSON.parse(text) as T, cookie: first?.split(';')[0] };
}

/**
 * What the card fields do in the browser: tokenize a card at the gateway's client API with a client token's
 * fingerprint. Resolves to the nonce of card number `cardNumber(n)`.
 */
export function cardTokenizer(gateway: Pool, clientToken: string): (n: number) => Promise<string> {
  const token = JSON.parse(Buffer.from(clientToken, 'base64').toString('utf8')) as {
    authorizationFingerprint: string;
    clientApiUrl: string;
  };
  const path = `${new URL(token.clientApiUrl).pathname}/v1/payment_methods/credit_cards`;
  const expirationDate = `12/${new Date().getUTCFullYear() + 2}`;
  return async (n) => {
    const tokenized = await json<{ creditCards: Array<{ nonce: string }> }>(gateway, {
      method: 'POST',
      path,
      body: {
        authorizationFingerprint: token.authorizationFingerprint,
        creditCard: { number: cardNumber(n), expirationDate, cvv: '123' },
      },
    });
    const nonce = tokenized.body.creditCards[0]?.nonce;
    if (nonce === undefined) throw new Error('tokenization answered no nonce');
    return nonce;
  };
}

/** What a browser does before pressing Pay: an order, a card tokenized at the gateway, a bot-check solved. */
async function prepareSession(
  kassa: Pool,
  gateway: Pool,
  count: number,
  firstCard: number,
  runId: string,
  address: string,
): Promise<PreparedPayment[]> {
  const items = [{ productId: PRODUCT, quantity: 1 }];
  const proxied = { 'x-forwarded-for': address };
  const first = await json<{ order: { id: string } }>(kassa, {
    method: 'POST',
    path: '/api/orders',
    headers: proxied,
    body: { items },
  });
  if (first.cookie === undefined) throw new Error('no session cookie');
  const cookie = first.cookie;
  const orderIds = [first.body.order.id];
  while (orderIds.length < count) {
    orderIds.push(
      (
        await json<{ order: { id: string } }>(kassa, {
          method: 'POST',
          path: '/api/orders',
          headers: { cookie, ...proxied },
          body: { items },
        })
      ).body.order.id,
    );
  }
  const session = await json<{ clientToken: string }>(kassa, {
    method: 'POST',
    path: `/api/orders/${orderIds[0]}/checkout-session`,
    headers: { cookie, ...proxied },
    body: {},
  });
  const tokenize = cardTokenizer(gateway, session.body.clientToken);
  const prepared: PreparedPayment[] = [];
  for (const [i, orderId] of orderIds.entries()) {
    const card = firstCard + i;
    const nonce = await tokenize(card);
    const challenge = (
      await json<Challenge>(kassa, {
        method: 'GET',
        path: '/api/botcheck/challenge?action=payment',
        headers: { cookie, ...proxied },
      })
    ).body;
    const solution = await solveChallenge({ challenge, deriveKey, timeout: 10_000 });
    if (solution === null) throw new Error('bot-check challenge not solved');
    prepared.push({
      orderId,
      cookie,
      nonce,
      botcheck: Buffer.from(JSON.stringify({ challenge, solution })).toString('base64'),
      idempotencyKey: `bench-${runId}-${card}`,
      clientAddress: address,
    });
  }
  return prepared;
}

/**
 * `count` payments ready to send, prepared by a few sessions at a time, in the order to send them. `from`: payments
 * this run prepared before (a warm-up's batches are prepared one at a time), whose sessions' addresses and cards these
 * do not reuse.
 */
export async function preparePayments(
  kassaUrl: string,
  gatewayOrigin: string,
  count: number,
  runId: string,
  from = 0,
): Promise<PreparedPayment[]> {
  const kassa = new Pool(kassaUrl, { connections: 8 });
  const gateway = new Pool(gatewayOrigin, { connections: 8 });
  try {
    const sessions = Math.ceil(count / ORDERS_PER_SESSION);
    const firstSession = Math.ceil(from / ORDERS_PER_SESSION);
    const bySession: PreparedPayment[][] = [];
    let nextSession = 0;
    const worker = async (): Promise<void> => {
      while (nextSession < sessions) {
        const session = nextSession;
        nextSession += 1;
        const size = Math.min(ORDERS_PER_SESSION, count - session * ORDERS_PER_SESSION);
        bySession[session] = await prepareSession(
          kassa,
          gateway,
          size,
          (firstSession + session) * ORDERS_PER_SESSION,
          runId,
          clientAddress(firstSession + session),
        );
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    // Sent in turn from every session (each session's first order, then each one's second...): the payments in flight
    // at once are different shoppers', as in a shop. A session's 25 orders sent together shared its address's rate-limit
    // row and its session's and address's velocity counts, which on PostgreSQL each waited on the one before to commit.
    return Array.from({ length: ORDERS_PER_SESSION }, (_, k) => bySession.flatMap((payments) => payments[k] ?? [])).flat();
  } finally {
    await Promise.all([kassa.close(), gateway.close()]);
  }
}
