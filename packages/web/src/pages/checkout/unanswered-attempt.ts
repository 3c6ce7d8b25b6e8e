import { useEffect, useReducer, useRef } from 'react';
import { api } from '../../api/client.ts';
import type { Order } from '../../api/types.ts';
import { messages } from '../../i18n/messages.ts';

/** How often the page asks again while an attempt waits for its outcome (the server settles it within minutes). */
export const POLL_MS = 5000;

/**
 * What the page knows of the order's latest attempt when its answer may have been lost (a network error, the gateway
 * not answering). `watching`: the shopper has been shown that an outcome is coming (a payment error, or an attempt
 * still being confirmed), so its end is told too. `askNow`: the order is to be asked for at once.
 */
export interface AttemptWatch {
  order: Order | undefined;
  watching: boolean;
  askNow: boolean;
}

export type AttemptWatchEvent =
  /** The page loaded the order (or loaded it again). */
  | { type: 'loaded'; order: Order | undefined }
  /** A payment failed: what became of its attempt? */
  | { type: 'payment_failed' }
  /** The order as the server has it now. */
  | { type: 'refreshed'; order: Order };

const latestPending = (order: Order | undefined): boolean => order?.payments.at(-1)?.status === 'pending';

export function watchAttempt(state: AttemptWatch, event: AttemptWatchEvent): AttemptWatch {
  switch (event.type) {
    case 'loaded':
      return { ...state, order: event.order, watching: state.watching || latestPending(event.order) };
    case 'payment_failed':
      return { ...state, watching: true, askNow: true };
    case 'refreshed':
      return { order: event.order, watching: state.watching || latestPending(event.order), askNow: false };
  }
}

/** When to ask for the order again: at once, every POLL_MS while its latest attempt is pending, or not (null). */
export function nextCheckInMs(state: AttemptWatch): number | null {
  if (state.order === undefined) return null;
  if (state.askNow) return 0;
  return latestPending(state.order) ? POLL_MS : null;
}

/**
 * What the shopper is told about the order's latest payment attempt when its answer was lost: still being confirmed,
 * or not gone through (once they were watching it: a shopper who paid long ago and just opens the page is not told
 * about an old decline). Null when there is nothing to say. The server finishes such an attempt by itself (a retry or
 * the reconciler), so the page says so instead of leaving the shopper with a network error and no outcome (issue 10).
 */
export function unansweredAttemptNotice({ order, watching }: AttemptWatch): string | null {
  const latest = order?.payments.at(-1);
  if (latest?.status === 'pending') return messages.attemptBeingConfirmed;
  if (watching && latest?.status === 'declined') return messages.attemptNotGoneThrough;
  return null;
}

/**
 * Watches the order while its latest attempt is pending: from the page's load, or from `check()` after a payment
 * error (which asks at once). `onPaid` runs when the order is paid after all (the lost attempt went through).
 */
export function useUnansweredAttempt(initial: Order | undefined, onPaid: () => void): { notice: string | null; check(): void } {
  const [state, dispatch] = useReducer(watchAttempt, { order: undefined, watching: false, askNow: false });
  const paid = useRef(onPaid);
  paid.current = onPaid;
  useEffect(() => dispatch({ type: 'loaded', order: initial }), [initial]);
  const delay = nextCheckInMs(state);

  useEffect(() => {
    const { order } = state;
    if (order === undefined || delay === null) return;
    let cancelled = false;
    const timer = setTimeout(() => {
      api.order(order.id).then(
        ({ order: fresh }) => {
          if (cancelled) return;
          dispatch({ type: 'refreshed', order: fresh });
          if (fresh.status !== 'pending') paid.current();
        },
        // Unreachable for now: the next change asks again.
        () => dispatch({ type: 'refreshed', order }),
      );
    }, delay);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [state, delay]);

  return { notice: unansweredAttemptNotice(state), check: () => dispatch({ type: 'payment_failed' }) };
}
