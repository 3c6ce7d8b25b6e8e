import { z } from 'zod';
import { BOTCHECK_PROVIDERS } from '../../botcheck/providers.ts';

const watchdogs = {
  anchorTimeoutMs: z.number().int().describe('How long the page waits for the widget (or the challenge) to load.'),
  executeTimeoutMs: z.number().int().describe('How long the page waits for a token (not while a visible challenge is open).'),
};

/** What the page needs to run the bot-check for one action: ALTCHA's challenge URL, or a third party's widget. */
export const botcheckSettingsSchema = z.discriminatedUnion('provider', [
  z.object({ provider: z.literal('altcha'), challengeUrl: z.string(), ...watchdogs }),
  z.object({
    provider: z
      .enum([
        ...(BOTCHECK_PROVIDERS.filter((p) => p !== 'altcha') as ['recaptcha-v2', 'recaptcha-v3', 'hcaptcha', 'turnstile']),
        'recaptcha-v2-checkbox',
      ])
      .describe("The widget to run; `recaptcha-v2-checkbox`: reCAPTCHA v2's visible checkbox (BOTCHECK_CHECKBOX_ON)."),
    siteKey: z.string(),
    scriptUrl: z.string(),
    action: z.string().describe('The action the token is for (reCAPTCHA v3 and Turnstile report it back).'),
    binding: z.string().describe("Turnstile's cData: the session binding siteverify reports back."),
    tokenPrefix: z
      .string()
      .optional()
      .describe(
        "Set while the shop alert is raised (BOTCHECK_ALERT_PROVIDER): the widget is the alert's interactive one, shown for a person to complete, and the page sends `tokenPrefix` + its token, so the server verifies it with that provider's secret.",
      ),
    ...watchdogs,
  }),
]);
