import { expect, type Page, type Request, type Route } from '@playwright/test';

/**
 * The page's calls of the shop's API on their way, to wait for all but the held ones before the page's clock is run
 * forward past a deadline: one still on its way then (a slow answer on a loaded machine: the page's order, config or
 * sign-in state) meets its own deadline (web api/client.ts DEADLINE_MS, 15 s for the server's own answers) at the jump,
 * and the page says "Network error." for it, not for the held one (seen in a CI run at load 17). Only the API's calls
 * have those deadlines; other requests may never be reported finished (the proof of work's Web Worker script was not,
 * 2 of 10 runs of the payment held on its way), and waiting for them failed the test. Set before the page navigates.
 */
export function requestsOnTheirWay(page: Page): { untilOnly: (held: readonly Route[]) => Promise<void> } {
  const onTheirWay = new Set<Request>();
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) onTheirWay.add(request);
  });
  page.on('requestfinished', (request) => onTheirWay.delete(request));
  page.on('requestfailed', (request) => onTheirWay.delete(request));
  return {
    untilOnly: async (held) => {
      const heldRequests = new Set(held.map((route) => route.request()));
      await expect
        .poll(() => [...onTheirWay].filter((request) => !heldRequests.has(request)).map((request) => request.url()))
        .toEqual([]);
    },
  };
}
