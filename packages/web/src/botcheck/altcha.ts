import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/sha';
import type { BotcheckSettings } from '../api/types.ts';

import { BotcheckError } from './botcheck-error.ts';

type AltchaSettings = Extract<BotcheckSettings, { provider: 'altcha' }>;

/**
 * Runs the self-hosted proof-of-work bot-check and returns the token the server verifies once.
 * Two watchdogs (botcheck.md): the anchor time-out bounds loading the challenge, the execute time-out bounds solving
 * it. Proof-of-work has no visible challenge a person could still be solving, so the execute watchdog always applies.
 */
export async function runAltcha(settings: AltchaSettings): Promise<string> {
  const challenge = await loadChallenge(settings);
  const solution = await solveChallenge({ challenge, deriveKey, timeout: settings.executeTimeoutMs });
  if (!solution) throw new BotcheckError('botcheck_execute_timeout');
  return btoa(JSON.stringify({ challenge, solution }));
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
