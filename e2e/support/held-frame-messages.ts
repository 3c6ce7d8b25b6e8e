import type { Page } from '@playwright/test';
import { currentProduct } from './products.ts';

/**
 * Holds back every message the gateway's frames post to the page for `ms` before the page hears it, in the order they
 * were posted: the frames' reports are then still on their way when a card filled at once is submitted at once, as on a
 * loaded machine or a slow phone. Chromium's messages between its processes cannot be slowed on demand, so a listener
 * of the page's own takes each message from the gateway's origin first (added before any script of the page's, so
 * heard before the page's listeners) and hands the same message (its data, origin and sending window) to them later. Messages
 * from the page's own origin, and those the page sends the frames, pass as they are. For every page the test opens from
 * now on (not a document written over by `setContent`, as the integrator's page is: that erases the page's listeners,
 * and one added after the checkout's is heard after it).
 */
export async function holdFrameMessages(page: Page, ms: number): Promise<void> {
  await page.addInitScript(hold, { origin: new URL(currentProduct().sandboxUrl).origin, delay: ms });
}

function hold({ origin, delay }: { origin: string; delay: number }): void {
  if (window !== window.top) return;
  const handedOn = new WeakSet<Event>();
  let last = 0;
  window.addEventListener('message', (event) => {
    if (event.origin !== origin || handedOn.has(event)) return;
    event.stopImmediatePropagation();
    const later = new MessageEvent('message', { data: event.data, origin: event.origin, source: event.source });
    handedOn.add(later);
    // In order: never before the message posted ahead of it.
    const at = Math.max(performance.now() + delay, last);
    last = at;
    setTimeout(() => window.dispatchEvent(later), at - performance.now());
  });
}
