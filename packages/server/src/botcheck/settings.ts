import type { z } from 'zod';
import type { Config } from '../config.ts';
import type { ShopAlert } from '../velocity/shop-alert.ts';
import type { botcheckSettingsSchema } from '../routes/botcheck/botcheck.schemas.ts';
import { botcheckBinding } from './verifier.ts';
import type { BotcheckAction } from './verifier.ts';

/** The card-testing actions: while the shop alert is raised they need the alert's interactive check (BOTCHECK_ALERT_PROVIDER). */
export const STEPPED_UP_ACTIONS: readonly BotcheckAction[] = ['payment', 'save_card'];

/** How the page marks a token of the alert's widget, so the server verifies it with that provider's secret. */
export const ALERT_TOKEN_PREFIX = 'alert:';

/** Whether `action` needs the alert's interactive check now: configured, a card-testing action, the alert raised. */
export async function steppedUp(config: Config['botcheck'], shopAlert: ShopAlert, action: BotcheckAction): Promise<boolean> {
  return config.alert !== null && STEPPED_UP_ACTIONS.includes(action) && (await shopAlert.raised());
}

/**
 * The page's bot-check settings for one action of one session (handed out with the checkout, sign-in, ...).
 * `stepUp` (steppedUp's answer): the alert's interactive widget instead.
 */
export function botcheckSettings(
  config: Config['botcheck'],
  sessionId: string | null,
  action: BotcheckAction,
  stepUp = false,
): z.input<typeof botcheckSettingsSchema> {
  const watchdogs = { anchorTimeoutMs: config.anchorTimeoutMs, executeTimeoutMs: config.executeTimeoutMs };
  if (stepUp && config.alert !== null) {
    return {
      provider: config.alert.provider,
      siteKey: config.alert.siteKey,
      scriptUrl: config.alert.scriptUrl,
      action,
      binding: botcheckBinding(config.secret, sessionId, action).session,
      tokenPrefix: ALERT_TOKEN_PREFIX,
      ...watchdogs,
    };
  }
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
