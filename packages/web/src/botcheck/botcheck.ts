import type { BotcheckSettings } from '../api/types.ts';
import { altchaTokenUsable, runAltcha } from './altcha.ts';
import { solveAhead, type SolveAhead } from './solve-ahead.ts';
import { runWidget } from './widget.ts';

export { BotcheckError } from './botcheck-error.ts';

/**
 * Runs the bot-check the server configured and returns the token it verifies once: the self-hosted proof of work, or
 * a third party's widget (reCAPTCHA, hCaptcha, Turnstile). Both watchdogs apply to each (botcheck.md).
 */
export function runBotcheck(settings: BotcheckSettings): Promise<string> {
  return settings.provider === 'altcha' ? runAltcha(settings) : runWidget(settings);
}

/**
 * The payment's bot-check, solvable ahead of Pay: the self-hosted proof of work starts when asked (as the shopper types
 * the card, issue 10); a third party's widget runs at Pay only (its token lives about two minutes, and it may show the
 * shopper a challenge).
 */
export function paymentBotcheck(settings: BotcheckSettings): SolveAhead {
  if (settings.provider === 'altcha') return solveAhead(() => runAltcha(settings), altchaTokenUsable);
  return { start: () => {}, take: () => runWidget(settings) };
}
