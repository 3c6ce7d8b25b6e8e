import type { BotcheckSettings } from '../api/types.ts';
import { runAltcha } from './altcha.ts';
import { runWidget } from './widget.ts';

export { BotcheckError } from './botcheck-error.ts';

/**
 * Runs the bot-check the server configured and returns the token it verifies once: the self-hosted proof of work, or
 * a third party's widget (reCAPTCHA, hCaptcha, Turnstile). Both watchdogs apply to each (botcheck.md).
 */
export function runBotcheck(settings: BotcheckSettings): Promise<string> {
  return settings.provider === 'altcha' ? runAltcha(settings) : runWidget(settings);
}
