/**
 * Waits for the next minute of the clock when fewer than `marginMs` of this one are left. The per-minute rate limits
 * count per minute of the clock (`plugins/rate-limit-store.ts`): a test that counts requests up to a limit and past
 * it must make them all in one such minute, or the count starts again halfway.
 */
export async function inOneRateLimitMinute(marginMs: number): Promise<void> {
  const msToNextMinute = 60_000 - (Date.now() % 60_000);
  if (msToNextMinute < marginMs) await new Promise((resolve) => setTimeout(resolve, msToNextMinute));
}
