// What the checkout page shows before the card form: the order and, while it is pending, its checkout session (the
// client token the card form waits for). Both are on the way to a typeable card field (issue 10), so they are asked for
// at once, and as soon as the app starts on a checkout URL rather than once the page has rendered.
import { api } from '../../api/client.ts';
import type { CheckoutSession, Order } from '../../api/types.ts';
import { problemOf, type Loaded } from '../../api/use-load.ts';
import { matchRoute } from '../../router.tsx';

export interface CheckoutData {
  order: Order;
  /** Only while the order is pending: a paid (or refunded, voided) order is not paid again. */
  session: CheckoutSession | undefined;
}

export interface CheckoutCalls {
  order(orderId: string): Promise<{ order: Order }>;
  checkoutSession(orderId: string): Promise<CheckoutSession>;
}

/**
 * The order and its checkout session side by side. The server refuses a session for a paid order before it counts or
 * asks the gateway for anything (`order_already_paid`); whatever the session call answered for an order that is not
 * pending is dropped, its refusal included.
 */
export async function loadCheckout(orderId: string, calls: CheckoutCalls = api): Promise<CheckoutData> {
  const sessionCall = calls.checkoutSession(orderId);
  // Settled here so a refusal the page does not need is never an unhandled rejection.
  const session = sessionCall.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  const { order } = await calls.order(orderId);
  if (order.status !== 'pending') return { order, session: undefined };
  const answered = await session;
  if (!answered.ok) throw answered.error;
  return { order, session: answered.value };
}

/** A load started at start-up, and its outcome once it has one. */
interface StartedLoad {
  readonly load: Promise<CheckoutData>;
  settled?: Loaded<CheckoutData>;
}

const started = new Map<string, StartedLoad>();

/**
 * Starts loading the checkout when the app opens on a checkout URL, before React has rendered anything (main.tsx); the
 * page takes that load instead of starting its own. Its rejection is handled by the page that takes it.
 */
export function startCheckoutLoad(path: string, calls: CheckoutCalls = api): void {
  const orderId = matchRoute('/checkout/:orderId', path)?.orderId;
  if (orderId === undefined || started.has(orderId)) return;
  const entry: StartedLoad = { load: loadCheckout(orderId, calls) };
  entry.load.then(
    (data) => {
      entry.settled = { status: 'ready', data };
    },
    (error: unknown) => {
      entry.settled = { status: 'failed', problem: problemOf(error) };
    },
  );
  started.set(orderId, entry);
}

/**
 * What the load started for this order has given so far: its outcome once it has one, so the page's first render shows
 * it (on a first visit it usually answers while the app's modules still load) instead of "Loading…" for a render and
 * a paint more before the card form (issue 10).
 */
export function startedCheckoutOutcome(orderId: string): Loaded<CheckoutData> | undefined {
  return started.get(orderId)?.settled;
}

/** The load started for this order at start-up (once: a later visit loads afresh), else a new one. */
export function takeCheckoutLoad(orderId: string, calls: CheckoutCalls = api): Promise<CheckoutData> {
  const entry = started.get(orderId);
  started.delete(orderId);
  return entry?.load ?? loadCheckout(orderId, calls);
}
