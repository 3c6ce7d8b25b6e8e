import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/sha';
import type { BotcheckSettings } from '../api/types.ts';

/** Why the bot-check gave no token: the shopper can retry in both cases, and no payment is attempted. */
export class BotcheckError extends Error {
  constructor(readonly code: 'botcheck_anchor_timeout' | 'botcheck_execute_timeout' | 'botcheck_unavailable') {
    super(code);
    this.name = 'BotcheckError';
  }
}

/**
 * Runs the self-hosted proof-of-work bot-check and returns the token the server verifies once.
 * Two watchdogs (botcheck.md): the anchor time-out bounds loading the challenge, the execute time-out bounds solving
 * it. Proof-of-work has no visible challenge a person could still be solving, so the execute watchdog always applies.
 */
export async function runBotcheck(settings: BotcheckSettings): Promise<string> {
  const challenge = await loadChallenge(settings);
  const solution = await solveChallenge({ challenge, deriveKey, timeout: settings.executeTimeoutMs });
  if (!solution) throw new BotcheckError('botcheck_execute_timeout');
  return btoa(JSON.stringify({ challenge, solution }));
}

async function loadChallenge(settings: BotcheckSettings): Promise<Challenge> {
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
