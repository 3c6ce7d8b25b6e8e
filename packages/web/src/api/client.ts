import type { Account, CheckoutSession, SessionState, CreateOrderRequest, Order, Payment, PayRequest, Problem, Product, ShopConfig, SignInRequest, SignUpRequest } from './types.ts';

/** A failed call, carrying the server's problem document (or a synthetic one for network failures). */
export class ApiError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail ?? problem.title ?? problem.code);
    this.name = 'ApiError';
  }
}

async function call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      // The server accepts mutating calls only as JSON (with SameSite cookies, its CSRF defence), bodiless ones too.
      headers: method === 'GET' ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError({ status: 0, code: 'network_error' });
  }
  if (response.status === 204) return undefined as T;
  const payload: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const problem = (payload ?? {}) as Partial<Problem>;
    throw new ApiError({ ...problem, status: response.status, code: problem.code ?? 'unexpected_error' });
  }
  return payload as T;
}

export const api = {
  config: () => call<ShopConfig>('GET', '/api/config'),
  catalogue: () => call<{ products: Product[] }>('GET', '/api/catalogue'),
  session: () => call<SessionState>('GET', '/api/session'),
  signUp: (input: SignUpRequest) =>
    call<{ account: Account }>('POST', '/api/accounts', input),
  signIn: (input: SignInRequest) => call<{ account: Account }>('POST', '/api/session', input),
  signOut: () => call<void>('DELETE', '/api/session'),
  createOrder: (items: CreateOrderRequest['items']) =>
    call<{ order: Order }>('POST', '/api/orders', { items }),
  order: (id: string) => call<{ order: Order }>('GET', `/api/orders/${encodeURIComponent(id)}`),
  checkoutSession: (orderId: string) =>
    call<CheckoutSession>('POST', `/api/orders/${encodeURIComponent(orderId)}/checkout-session`, {}),
  pay: (orderId: string, idempotencyKey: string, body: PayRequest) =>
    call<{ payment: Payment; order: Order }>('POST', `/api/orders/${encodeURIComponent(orderId)}/payments`, body, {
      'idempotency-key': idempotencyKey,
    }),
};
