import { solveChallengeWorkers, type Challenge, type Solution } from 'altcha-lib';
import type { BotcheckSettings } from '../api/types.ts';
import { BotcheckError } from './botcheck-error.ts';

type AltchaSettings = Extract<BotcheckSettings, { provider: 'altcha' }>;

/** Workers that search the counters side by side (each from its own offset); more gain little on a phone. */
const MAX_WORKERS = 4;

/**
 * Runs the self-hosted proof-of-work bot-check and returns the token the server verifies once.
 * Two watchdogs (botcheck.md): the anchor time-out bounds loading the challenge, the execute time-out bounds solving
 * it. Proof-of-work has no visible challenge a person could still be solving, so the execute watchdog always applies.
 * The work runs in Web Workers (altcha.worker.ts): the page stays responsive however hard the challenge (it is ten
 * times harder while the shop is under attack).
 */
export async function runAltcha(settings: AltchaSettings): Promise<string> {
  const challenge = await loadChallenge(settings);
  let solution: Solution | null;
  try {
    solution = await solveChallengeWorkers({
      challenge,
      concurrency: Math.min(MAX_WORKERS, navigator.hardwareConcurrency || 1),
      createWorker: () =>
        new Worker(new URL('./altcha.worker.ts', import.meta.url), { type: 'module', name: 'kassa-proof-of-work' }),
      timeout: settings.executeTimeoutMs,
    });
  } catch {
    // A worker that could not start or failed.
    throw new BotcheckError('botcheck_unavailable');
  }
  if (!solution) throw new BotcheckError('botcheck_execute_timeout');
  return btoa(JSON.stringify({ challenge, solution }));
}

/** Time left on a solved challenge for the payment to reach the server before it expires. */
const MIN_TIME_LEFT_MS = 60_000;

/** Whether a token solved earlier (ahead of Pay) can still be verified: its challenge does not expire in the next minute. */
export function altchaTokenUsable(token: string, now: number = Date.now()): boolean {
  try {
    const { challenge } = JSON.parse(atob(token)) as { challenge: { parameters: { expiresAt?: number } } };
    const expiresAt = challenge.parameters.expiresAt;
    return expiresAt === undefined || expiresAt * 1000 - now > MIN_TIME_LEFT_MS;
  } catch {
    return false;
  }
}

async function loadChallenge(settings: AltchaSettings): Promise<Challenge> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), settings.anchorTimeoutMs);
  try {
    const response = await fetch(settings.challengeUrl, { signal: controller.signal, credentials: 'same-origin' });
    if (!response.ok) throw new BotcheckError('botcheck_unavailable');
    return (await response.json()) as Challenge;
  } catch (error) {
    if (error instanceof BotcheckError) throw error;
    throw new BotcheckError(controller.signal.aborted ? 'botcheck_anchor_timeout' : 'botcheck_unavailable');
  } finally {
    clearTimeout(timer);
  }
}
