import { BotcheckError, runBotcheck } from '../botcheck/botcheck.ts';
import type {
  Account,
  BotcheckSettings,
  CheckoutSession,
  ConfirmSignUpRequest,
  CreateOrderRequest,
  Order,
  Payment,
  PayRequest,
  Plan,
  Problem,
  Product,
  SavedPaymentMethod,
  SessionState,
  ShopConfig,
  SignInRequest,
  SignUpRequest,
  Subscription,
  SubscribeRequest,
  VaultSession,
} from './types.ts';

/** A failed call, carrying the server's problem document (or a synthetic one for network failures). */
export class ApiError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail ?? problem.title ?? problem.code);
    this.name = 'ApiError';
  }
}

/**
 * How long a call waits for the server's whole answer (its headers and body) before it is a network error: without a
 * deadline a request the network holds (a dead connection, a proxy that never answers) leaves "Loading…" or "Paying…"
 * on the page for good. By what the server may wait for before it answers:
 * - `server`: the server answers from its own database (`/api/config` too: the server cuts its one gateway call short).
 * - `gateway`: the server may wait for the gateway (a client token, a sale, a saved card, a subscription, a dispute) or
 *   a bot-check provider's verification. Longer than the server's own wait for one gateway call
 *   (`GATEWAY_TIMEOUT_SECONDS`, at most 60 s) with 30 s for the rest of the request (the bot-check's verification, 5 s
 *   tried twice by default, at most 10 s: the server refuses a longer `BOTCHECK_VERIFY_TIMEOUT_MS`; the database), so
 *   the page does not call a payment failed while the server still makes it. A payment that outlasts it all the same
 *   (two gateway calls at the 60 s setting) is answered once: the page keeps its Idempotency-Key for Pay again and asks
 *   what became of the attempt (pages/checkout/unanswered-attempt.ts).
 */
export const DEADLINE_MS = { server: 15_000, gateway: 90_000 } as const;
const { server: SERVER, gateway: GATEWAY } = DEADLINE_MS;

/**
 * One call of the server's API: JSON both ways, a problem document thrown as an ApiError; no whole answer within
 * `deadlineMs` (DEADLINE_MS) is a network error, as a dropped connection is.
 */
export async function call<T>(
  deadlineMs: number,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  let response: Response;
  let payload: unknown;
  try {
    response = await fetch(path, {
      method,
      // The server accepts mutating calls only as JSON (with SameSite cookies, its CSRF defence), bodiless ones too.
      headers: method === 'GET' ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      // Its timer is the page's (a test's clock runs it forward): it aborts the body's read too.
      signal: AbortSignal.timeout(deadlineMs),
    });
    if (response.status === 204) return undefined as T;
    // A body that is not JSON is no document; a body cut off or held past the deadline is a network error.
    payload = await response.json().catch((error: unknown) => {
      if (error instanceof SyntaxError) return null;
      throw error;
    });
  } catch {
    throw new ApiError({ status: 0, code: 'network_error' });
  }
  if (!response.ok) {
    const problem = (payload ?? {}) as Partial<Problem>;
    throw new ApiError({ ...problem, status: response.status, code: problem.code ?? 'unexpected_error' });
  }
  return payload as T;
}

/** The actions the bot-check guards: payments always, the others as the merchant chose (the server's BOTCHECK_ON). */
type GuardedAction = 'payment' | 'sign_in' | 'sign_up' | 'save_card';

/** How the page gets a token for `action` now (null: not guarded); the shop alert may switch it to its widget. */
async function botcheckSettings(action: GuardedAction): Promise<BotcheckSettings | null> {
  return (await call<{ botcheck: BotcheckSettings | null }>(SERVER, 'GET', `/api/botcheck/settings?action=${action}`)).botcheck;
}

/**
 * A token for `action` when the server guards it (none otherwise): the bot-check runs with its watchdogs, and a
 * failure is thrown as an ApiError whose code the pages word like any other (`botcheck_execute_timeout`, ...).
 */
async function botcheckFor(action: GuardedAction): Promise<{ botcheck?: string }> {
  const botcheck = await botcheckSettings(action);
  if (botcheck === null) return {};
  try {
    return { botcheck: await runBotcheck(botcheck) };
  } catch (error) {
    throw new ApiError({ status: 0, code: error instanceof BotcheckError ? error.code : 'botcheck_unavailable' });
  }
}

export const api = {
  config: () => call<ShopConfig>(SERVER, 'GET', '/api/config'),
  botcheckSettings,
  catalogue: () => call<{ products: Product[]; plans: Plan[] }>(SERVER, 'GET', '/api/catalogue'),
  session: () => call<SessionState>(SERVER, 'GET', '/api/session'),
  /** Answered alike whether or not the email has an account: the rest happens by mail. */
  signUp: async (input: SignUpRequest) =>
    call<{ status: 'check_email' }>(GATEWAY, 'POST', '/api/accounts', { ...input, ...(await botcheckFor('sign_up')) }),
  /** The sign-up mail's link: makes the account and signs in. */
  confirmSignUp: (input: ConfirmSignUpRequest) =>
    call<{ account: Account }>(GATEWAY, 'POST', '/api/accounts/confirmation', input),
  signIn: async (input: SignInRequest) =>
    call<{ account: Account }>(GATEWAY, 'POST', '/api/session', { ...input, ...(await botcheckFor('sign_in')) }),
  signOut: () => call<void>(SERVER, 'DELETE', '/api/session'),
  createOrder: (items: CreateOrderRequest['items']) => call<{ order: Order }>(SERVER, 'POST', '/api/orders', { items }),
  order: (id: string) => call<{ order: Order }>(SERVER, 'GET', `/api/orders/${encodeURIComponent(id)}`),
  checkoutSession: (orderId: string) =>
    call<CheckoutSession>(GATEWAY, 'POST', `/api/orders/${encodeURIComponent(orderId)}/checkout-session`, {}),
  pay: (orderId: string, idempotencyKey: string, body: PayRequest) =>
    call<{ payment: Payment; order: Order }>(GATEWAY, 'POST', `/api/orders/${encodeURIComponent(orderId)}/payments`, body, {
      'idempotency-key': idempotencyKey,
    }),
  /** The signed-in shopper's orders, newest first. */
  orders: () => call<{ orders: Order[] }>(SERVER, 'GET', '/api/orders'),
  paymentMethods: () => call<{ paymentMethods: SavedPaymentMethod[] }>(GATEWAY, 'GET', '/api/payment-methods'),
  /** A client token for the checkout's card form outside an order: the card it tokenizes is then saved by addPaymentMethod. */
  vaultSession: () => call<VaultSession>(GATEWAY, 'POST', '/api/payment-methods/client-token', {}),
  addPaymentMethod: async (idempotencyKey: string, nonce: string, makeDefault: boolean) =>
    call<{ paymentMethod: SavedPaymentMethod }>(
      GATEWAY,
      'POST',
      '/api/payment-methods',
      { nonce, makeDefault, ...(await botcheckFor('save_card')) },
      { 'idempotency-key': idempotencyKey },
    ),
  /** A single-use nonce that pays with a saved method. */
  savedMethodNonce: (idempotencyKey: string, id: string) =>
    call<{ nonce: string }>(
      GATEWAY,
      'POST',
      `/api/payment-methods/${encodeURIComponent(id)}/nonces`,
      {},
      {
        'idempotency-key': idempotencyKey,
      },
    ),
  makeDefaultPaymentMethod: (idempotencyKey: string, id: string) =>
    call<{ paymentMethod: SavedPaymentMethod }>(
      GATEWAY,
      'POST',
      `/api/payment-methods/${encodeURIComponent(id)}/default`,
      {},
      { 'idempotency-key': idempotencyKey },
    ),
  deletePaymentMethod: (idempotencyKey: string, id: string) =>
    call<void>(GATEWAY, 'DELETE', `/api/payment-methods/${encodeURIComponent(id)}`, undefined, {
      'idempotency-key': idempotencyKey,
    }),
  subscriptions: () => call<{ subscriptions: Subscription[] }>(GATEWAY, 'GET', '/api/subscriptions'),
  /** With a new card (a nonce) the first charge is a payment: it carries a payment's bot-check token. */
  subscribe: async (idempotencyKey: string, body: SubscribeRequest) =>
    call<{ subscription: Subscription }>(
      GATEWAY,
      'POST',
      '/api/subscriptions',
      body.nonce === undefined ? body : { ...body, ...(await botcheckFor('payment')) },
      { 'idempotency-key': idempotencyKey },
    ),
  cancelSubscription: (idempotencyKey: string, id: string) =>
    call<{ subscription: Subscription }>(
      GATEWAY,
      'POST',
      `/api/subscriptions/${encodeURIComponent(id)}/cancel`,
      {},
      { 'idempotency-key': idempotencyKey },
    ),
};
