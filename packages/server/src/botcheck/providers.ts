/** The bot-check providers Kassa can use: its own proof of work, or a third party verified through siteverify. */
export const BOTCHECK_PROVIDERS = ['altcha', 'recaptcha-v2', 'recaptcha-v3', 'hcaptcha', 'turnstile'] as const;
export type BotcheckProvider = (typeof BOTCHECK_PROVIDERS)[number];
export type SiteverifyProvider = Exclude<BotcheckProvider, 'altcha'>;

export interface SiteverifyProviderFacts {
  /** The provider's server-side check (botcheck.md). */
  verifyUrl: string;
  /** The widget script the page loads (explicit rendering: the web app renders and executes it at Pay). */
  scriptUrl: string;
  /** Origins the page must allow for the widget's script and frames (CSP script-src, frame-src, connect-src). */
  origins: string[];
  /** How long a token may be redeemed: the replay store keeps its fingerprint that long. */
  tokenLifeSeconds: number;
  /** Whether siteverify answers the action the token was made for (then it must be the one expected). */
  reportsAction: boolean;
}

/** What each third-party provider publishes (botcheck.md, "Providers"). */
export const SITEVERIFY_PROVIDERS: Record<SiteverifyProvider, SiteverifyProviderFacts> = {
  'recaptcha-v2': {
    verifyUrl: 'https://www.google.com/recaptcha/api/siteverify',
    scriptUrl: 'https://www.google.com/recaptcha/api.js',
    origins: ['https://www.google.com', 'https://www.gstatic.com', 'https://recaptcha.google.com'],
    tokenLifeSeconds: 120,
    reportsAction: false,
  },
  'recaptcha-v3': {
    verifyUrl: 'https://www.google.com/recaptcha/api/siteverify',
    scriptUrl: 'https://www.google.com/recaptcha/api.js',
    origins: ['https://www.google.com', 'https://www.gstatic.com', 'https://recaptcha.google.com'],
    tokenLifeSeconds: 120,
    reportsAction: true,
  },
  hcaptcha: {
    verifyUrl: 'https://api.hcaptcha.com/siteverify',
    scriptUrl: 'https://js.hcaptcha.com/1/api.js',
    origins: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
    tokenLifeSeconds: 120,
    reportsAction: false,
  },
  turnstile: {
    verifyUrl: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    scriptUrl: 'https://challenges.cloudflare.com/turnstile/v0/api.js',
    origins: ['https://challenges.cloudflare.com'],
    tokenLifeSeconds: 300,
    reportsAction: true,
  },
};

/**
 * The interactive bot-checks the merchant may switch to while the shop alert is raised (BOTCHECK_ALERT_PROVIDER): a
 * visible widget a person completes, which a script cannot buy with CPU as it buys the proof of work.
 */
export const ALERT_PROVIDERS = ['recaptcha-v2-checkbox', 'hcaptcha', 'turnstile'] as const;
export type AlertProvider = (typeof ALERT_PROVIDERS)[number];

/** The siteverify an alert provider's tokens are checked at (reCAPTCHA's checkbox is v2's). */
export function alertSiteverifyProvider(provider: AlertProvider): SiteverifyProvider {
  return provider === 'recaptcha-v2-checkbox' ? 'recaptcha-v2' : provider;
}
