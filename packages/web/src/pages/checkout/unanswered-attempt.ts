import { useEffect, useRef, useState } from 'react';
import { api } from '../../api/client.ts';
import type { Order } from '../../api/types.ts';
import { messages } from '../../i18n/messages.ts';

/** How often the page asks again while an attempt waits for its outcome (the server settles it within minutes). */
const POLL_MS = 5000;

/**
 * What the shopper is told about the order's latest payment attempt when its answer was lost (a network error, the
 * gateway not answering): still being confirmed, or not gone through. Null when there is nothing to say. The server
 * finishes such an attempt by itself (a retry or the reconciler), so the page says so instead of leaving the shopper
 * with a network error and no outcome (issue 10).
 */
export function unansweredAttemptNotice(order: Order, watching: boolean): string | null {
  const latest = order.payments.at(-1);
  if (latest?.status === 'pending') return messages.attemptBeingConfirmed;
  if (watching && latest?.status === 'declined') return messages.attemptNotGoneThrough;
  return null;
}

/**
 * Watches the order while its latest attempt is pending: from the page's load, or from `check()` after a payment
 * error (which asks at once). `onPaid` runs when the order is paid after all (the lost attempt went through).
 */
export function useUnansweredAttempt(initial: Order | undefined, onPaid: () => void): { notice: string | null; check(): void } {
  const [order, setOrder] = useState(initial);
  const [watching, setWatching] = useState(false);
  const [askNow, setAskNow] = useState(false);
  const paid = useRef(onPaid);
  paid.current = onPaid;
  useEffect(() => setOrder(initial), [initial]);
  const pending = order?.payments.at(-1)?.status === 'pending';

  useEffect(() => {
    if (order === undefined || (!askNow && !pending)) return;
    let cancelled = false;
    const timer = setTimeout(
      () => {
        api.order(order.id).then(
          ({ order: fresh }) => {
            if (cancelled) return;
            setAskNow(false);
            setOrder(fresh);
            if (fresh.status !== 'pending') paid.current();
          },
          // Unreachable for now: the next change asks again.
          () => setAskNow(false),
        );
      },
      askNow ? 0 : POLL_MS,
    );
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [order, pending, askNow]);

  return {
    notice: order === undefined ? null : unansweredAttemptNotice(order, watching),
    check() {
      setWatching(true);
      setAskNow(true);
    },
  };
}
