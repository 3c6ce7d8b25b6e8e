import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { SITEVERIFY_PROVIDERS } from './providers.ts';
import type { SiteverifyProvider } from './providers.ts';
import type { CheckboxConfig } from '../config.ts';
import type { BotcheckBinding, BotcheckVerifier, Verdict, VerifyContext } from './verifier.ts';

export interface SiteverifyOptions {
  provider: SiteverifyProvider;
  siteKey: string;
  secretKey: string;
  /** reCAPTCHA v2's checkbox: the actions that show it, verified with its own key pair. */
  checkbox?: CheckboxConfig | null;
  /** The provider's siteverify endpoint (a stand-in in tests). */
  verifyUrl: string;
  /** reCAPTCHA v3: tokens scored below this are refused (0.0 = bot, 1.0 = person). */
  minScore: number;
  /** How long one call to siteverify may take before the check counts as not made (fail closed). */
  timeoutMs: number;
}

/** What siteverify answers (the members of all three providers; each sends the ones it has). */
const answerSchema = z.object({
  success: z.boolean(),
  'error-codes': z.array(z.string()).optional(),
  hostname: z.string().optional(),
  action: z.string().optional(),
  score: z.number().optional(),
  /** Turnstile: the customer data the widget was rendered with (Kassa puts the session binding there). */
  cdata: z.string().optional(),
});

type Answer = z.infer<typeof answerSchema>;

/**
 * reCAPTCHA (v2 invisible or checkbox, v3), hCaptcha and Turnstile: the token goes to the provider's siteverify with the secret
 * key and the client's address, and the answer is checked here: success, the host name the widget ran on, the
 * action (v3, Turnstile), the score (v3) and, for Turnstile, the session the widget was rendered for (its cData).
 * reCAPTCHA and hCaptcha tokens carry no session: they are bound by their short life and single use instead.
 */
export class SiteverifyVerifier implements BotcheckVerifier {
  readonly provider: SiteverifyProvider;
  readonly #options: SiteverifyOptions;

  constructor(options: SiteverifyOptions) {
    this.provider = options.provider;
    this.#options = options;
  }

  async verify(token: string, binding: BotcheckBinding, context: VerifyContext): Promise<Verdict> {
    if (token.length === 0 || token.length > 4096) return { ok: false, reason: 'malformed token' };
    const answer = await this.#siteverify(token, context.remoteIp, binding.action);
    if (answer === null) return { ok: false, reason: 'provider unavailable', unavailable: true };
    const refusal = this.#refusal(answer, binding, context);
    if (refusal !== null) return { ok: false, reason: refusal };
    const facts = SITEVERIFY_PROVIDERS[this.provider];
    return {
      ok: true,
      // The provider refuses a second use too; ours also holds when a provider forgets (or a stand-in is lenient).
      fingerprint: createHash('sha256').update(`${this.provider}:${token}`).digest('hex'),
      expiresAt: new Date(Date.now() + facts.tokenLifeSeconds * 1000),
    };
  }

  #refusal(answer: Answer, binding: BotcheckBinding, context: VerifyContext): string | null {
    if (!answer.success) return `refused by the provider (${(answer['error-codes'] ?? []).join(', ') || 'no reason given'})`;
    if (answer.hostname === undefined || !context.hostnames.includes(answer.hostname))
      return `solved on another host (${answer.hostname ?? 'none'})`;
    if (SITEVERIFY_PROVIDERS[this.provider].reportsAction && answer.action !== binding.action) return 'issued for another action';
    if (this.provider === 'recaptcha-v3' && (answer.score === undefined || answer.score < this.#options.minScore))
      return `score too low (${answer.score ?? 'none'})`;
    if (this.provider === 'turnstile' && answer.cdata !== binding.session) return 'issued to another session';
    return null;
  }

  /** One call to siteverify, retried once when the network failed; null when no answer could be had. */
  async #siteverify(token: string, remoteIp: string, action: string): Promise<Answer | null> {
    const checkbox = this.#options.checkbox;
    const secret = checkbox?.actions.some((shown) => shown === action) ? checkbox.secretKey : this.#options.secretKey;
    const form = new URLSearchParams({ secret, response: token, remoteip: remoteIp });
    if (this.provider === 'hcaptcha') form.set('sitekey', this.#options.siteKey);
    // Turnstile answers a retried call with the same key as the first instead of "already spent".
    if (this.provider === 'turnstile') form.set('idempotency_key', randomUUID());
    for (let attempt = 0; attempt < 2; attempt += 1) {
      let response: Response;
      try {
        response = await fetch(this.#options.verifyUrl, {
          method: 'POST',
          body: form,
          signal: AbortSignal.timeout(this.#options.timeoutMs),
        });
      } catch {
        continue;
      }
      if (!response.ok) return null;
      const parsed = answerSchema.safeParse(await response.json().catch(() => null));
      return parsed.success ? parsed.data : null;
    }
    return null;
  }
}
