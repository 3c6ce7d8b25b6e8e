import type { z } from 'zod';
import type { Config } from '../config.ts';
import type { botcheckSettingsSchema } from '../routes/botcheck/botcheck.schemas.ts';
import { botcheckBinding } from './verifier.ts';
import type { BotcheckAction } from './verifier.ts';

/** The page's bot-check settings for one action of one session (handed out with the checkout, sign-in, ...). */
export function botcheckSettings(
  config: Config['botcheck'],
  sessionId: string | null,
  action: BotcheckAction,
): z.input<typeof botcheckSettingsSchema> {
  const watchdogs = { anchorTimeoutMs: config.anchorTimeoutMs, executeTimeoutMs: config.executeTimeoutMs };
  if (config.provider === 'altcha' || config.siteverify === null) {
    return { provider: 'altcha', challengeUrl: `/api/botcheck/challenge?action=${action}`, ...watchdogs };
  }
  const checkbox = config.siteverify.checkbox;
  if (checkbox?.actions.includes(action)) {
    return {
      provider: 'recaptcha-v2-checkbox',
      siteKey: checkbox.siteKey,
      scriptUrl: config.siteverify.scriptUrl,
      action,
      binding: botcheckBinding(config.secret, sessionId, action).session,
      ...watchdogs,
    };
  }
  return {
    provider: config.provider,
    siteKey: config.siteverify.siteKey,
    scriptUrl: config.siteverify.scriptUrl,
    action,
    binding: botcheckBinding(config.secret, sessionId, action).session,
    ...watchdogs,
  };
}
