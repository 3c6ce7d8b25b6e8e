import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { z } from 'zod';
import { MIN_PASSWORD_COST } from './accounts/passwords.ts';
import type { PasswordCost } from './accounts/passwords.ts';
import { ALERT_PROVIDERS, alertSiteverifyProvider, BOTCHECK_PROVIDERS, SITEVERIFY_PROVIDERS } from './botcheck/providers.ts';
import type { AlertProvider, BotcheckProvider } from './botcheck/providers.ts';
import { BOTCHECK_ACTIONS } from './botcheck/verifier.ts';
import type { BotcheckAction } from './botcheck/verifier.ts';
import { DEFAULT_VELOCITY_LIMITS, scaleLimits } from './velocity/limits.ts';
import type { VelocityLimits } from './velocity/limits.ts';

/** Why the server refused to start: one line per bad variable, each naming it. */
export class ConfigError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

export type DatabaseConfig = { engine: 'sqlite'; file: string } | { engine: 'postgres'; url: string };

export type GatewayConfig =
  | ({ kind: 'custom'; host: string; port: number; ssl: boolean } & GatewayKeys)
  | ({ kind: 'braintree'; environment: 'sandbox' | 'production' } & GatewayKeys);

interface GatewayKeys {
  merchantId: string;
  publicKey: string;
  privateKey: string;
  /** The merchant account to charge (each has one currency); unset, the gateway's default account. */
  merchantAccountId?: string;
}

export interface Config {
  port: number;
  host: string;
  database: DatabaseConfig;
  gateway: GatewayConfig | null;
  /** Origins the browser may frame and call for the gateway (CSP frame-src / connect-src). */
  gatewayOrigins: string[];
  sessionSecret: string;
  /** Argon2id's cost for new password hashes; from the environment never below MIN_PASSWORD_COST (tests lower it). */
  passwordCost: PasswordCost;
  /** Bearer token `/metrics` asks for; null: it answers the machine itself only (a loopback client). */
  metricsToken: string | null;
  /** Cookie `Secure` flag: on when the public URL is https. */
  secureCookies: boolean;
  /** PUBLIC_URL's origin, where mailed links point; null: the origin a request came to (development). */
  publicUrl: string | null;
  /** Where mail goes: a mail server (SMTP_URL), or null: the dev outbox (no mail leaves the machine). */
  mail: { smtpUrl: string | null; from: string };
  botcheck: {
    provider: BotcheckProvider;
    /** HMAC key of ALTCHA challenges and of the session bindings every provider's tokens are checked against. */
    secret: string;
    /** Largest random counter of a challenge: the expected work is half of it. */
    maxCounter: number;
    /** The challenges' work is multiplied by this while the shop is under attack (velocity/shop-alert.ts). */
    elevatedCostFactor: number;
    challengeTtlSeconds: number;
    anchorTimeoutMs: number;
    executeTimeoutMs: number;
    /** A third-party provider's keys and endpoints; null with ALTCHA. */
    siteverify: SiteverifyConfig | null;
    /** Host names a third-party token may have been solved on; empty: the request's own host. */
    hostnames: string[];
    /** Where the widget's script and frames come from (CSP script-src, frame-src, connect-src); none with ALTCHA. */
    widgetOrigins: string[];
    /** The actions that need a bot-check token (BOTCHECK_ON); payments always do. */
    actions: BotcheckAction[];
    /** Low-risk actions let through (logged) when the provider cannot be asked (BOTCHECK_FAIL_OPEN); never payments. */
    failOpen: BotcheckAction[];
    /** The interactive bot-check payments and card saves switch to while the shop alert is raised; null: none. */
    alert: AlertBotcheckConfig | null;
  };
  checkout: { cardholderName: 'optional' | 'required' };
  /** Orders above this total (minor units of the order's currency) need a 3-D Secure liability shift; null: none do. */
  threeDSecureRequiredAbove: number | null;
  rateLimits: { paymentsPerMinute: number; accountsPerMinute: number };
  /** The velocity rules (src/velocity/limits.ts), scaled by VELOCITY_LIMIT_FACTOR. */
  velocity: VelocityLimits;
  /** How often stale payment attempts are finished (jobs/reconciler.ts); 0 turns the reconciler off. */
  reconcileIntervalMs: number;
  /** How often this instance deletes what no request reads again (jobs/sweeper.ts, SWEEP_INTERVAL_SECONDS). */
  sweepIntervalMs: number;
  /** How long the SDK waits for the gateway's answer to one call (GATEWAY_TIMEOUT_SECONDS). */
  gatewayTimeoutMs: number;
  /** A pending payment attempt untouched this long lost its request: see staleAttemptMsFor. */
  staleAttemptMs: number;
  /**
   * The proxies whose X-Forwarded-* headers are believed (client IP for rate limits and velocity rules, https):
   * false (none), a hop count, or the proxies' addresses and ranges. Never "everyone" (a client could name any IP).
   */
  trustProxy: TrustProxy;
  webDist: string | null;
  logFile: string | null;
  logLevel: LogLevel;
  /** The level of the lines written to the terminal (stdout), never below logLevel: LOG_FILE alone gets the rest. */
  logTerminalLevel: LogLevel;
  demo: { seed: boolean; shopperPassword: string; adminPassword: string };
}

export type TrustProxy = false | number | string[];

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface SiteverifyConfig {
  siteKey: string;
  secretKey: string;
  /**
   * reCAPTCHA v2 only: the actions shown its visible "I'm not a robot" checkbox instead of the invisible widget
   * (BOTCHECK_CHECKBOX_ON), with the checkbox-type key pair (reCAPTCHA keys are of one type); null: none.
   */
  checkbox: CheckboxConfig | null;
  verifyUrl: string;
  scriptUrl: string;
  minScore: number;
  verifyTimeoutMs: number;
}

/** BOTCHECK_ALERT_*: an interactive provider's keys and endpoints (defaults: the provider's own). */
export interface AlertBotcheckConfig {
  provider: AlertProvider;
  siteKey: string;
  secretKey: string;
  scriptUrl: string;
  verifyUrl: string;
  /** BOTCHECK_VERIFY_TIMEOUT_MS, as for the configured provider. */
  verifyTimeoutMs: number;
}

export interface CheckboxConfig {
  actions: BotcheckAction[];
  siteKey: string;
  secretKey: string;
}

export type Env = Record<string, string | undefined>;

const intBetween = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(min, `${name} must be between ${min} and ${max}`)
    .max(max, `${name} must be between ${min} and ${max}`);

const port = (name: string) => intBetween(name, 0, 65535);

/** GATEWAY_TIMEOUT_SECONDS's ceiling: the SDK's own default. */
const MAX_GATEWAY_TIMEOUT_SECONDS = 60;

/**
 * BOTCHECK_VERIFY_TIMEOUT_MS's ceiling. A payment's request verifies its token (a siteverify call, tried twice) and
 * then waits for the gateway (up to MAX_GATEWAY_TIMEOUT_SECONDS): the web app gives such a call 90 s before it calls it
 * a network error (packages/web src/api/client.ts, DEADLINE_MS.gateway), 30 s past the gateway's longest wait. Two
 * tries of 10 s leave 10 s of those for the database and the rest; a longer limit would let the page give up on a
 * payment the server is still making.
 */
const MAX_BOTCHECK_VERIFY_TIMEOUT_MS = 10_000;

const positiveInt = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .positive(`${name} must be greater than 0`);

/**
 * A part of Argon2id's cost: OWASP's minimum by default, and the floor (passwords.ts MIN_PASSWORD_COST). The ceiling is
 * past any guide's advice (RFC 9106's largest setting is 2 GiB and 1 pass; OWASP's up to 5 passes) and keeps the value in
 * Argon2's 32 bits: above them it wraps (2^32 KiB hashed as 0, refused at every sign-up and sign-in, not at the start),
 * and each sign-in holds the memory, and waits for the passes, of one hash.
 */
const passwordCost = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(min, `${name} must be at least ${min} (OWASP's minimum for Argon2id)`)
    .max(max, `${name} must be at most ${max} (past any guide's advice for Argon2id)`)
    .default(min);

const bool = (name: string) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: `${name} must be true or false` })
    .transform((v) => v === 'true' || v === '1' || v === 'yes');

const nonEmpty = (name: string) => z.string().trim().min(1, `${name} must not be empty`);

const origin = (name: string) =>
  z.string().refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === v.replace(/\/$/, '');
    } catch {
      return false;
    }
  }, `${name} must be an origin like https://gateway.example.com (scheme, host, optional port; no path)`);

const logLevel = (name: string) => z.enum(LOG_LEVELS, { error: `${name} must be one of ${LOG_LEVELS.join(', ')}` });

/** Public, test-only passwords of the demo accounts: never seeded as they are next to a production gateway. */
const DEFAULT_DEMO_PASSWORDS = { shopper: 'kassa-demo-shopper', admin: 'kassa-demo-admin' } as const;

/** Each variable: its own schema, so every error message names the variable. */
const fields = {
  PORT: port('PORT').default(8080),
  HOST: nonEmpty('HOST').default('127.0.0.1'),
  DATABASE_URL: nonEmpty('DATABASE_URL').default('./data/kassa.sqlite'),
  GATEWAY_HOST: nonEmpty('GATEWAY_HOST').optional(),
  GATEWAY_PORT: port('GATEWAY_PORT').optional(),
  GATEWAY_SSL: bool('GATEWAY_SSL').default(false),
  GATEWAY_ENVIRONMENT: z
    .enum(['sandbox', 'production'], { error: 'GATEWAY_ENVIRONMENT must be sandbox or production' })
    .optional(),
  GATEWAY_MERCHANT_ID: nonEmpty('GATEWAY_MERCHANT_ID').optional(),
  GATEWAY_PUBLIC_KEY: nonEmpty('GATEWAY_PUBLIC_KEY').optional(),
  GATEWAY_PRIVATE_KEY: nonEmpty('GATEWAY_PRIVATE_KEY').optional(),
  GATEWAY_MERCHANT_ACCOUNT_ID: nonEmpty('GATEWAY_MERCHANT_ACCOUNT_ID').optional(),
  GATEWAY_ORIGIN: z.string().optional(),
  PUBLIC_URL: z.url({ error: 'PUBLIC_URL must be a URL like https://shop.example.com' }).optional(),
  SESSION_SECRET: z.string().min(32, 'SESSION_SECRET must be at least 32 characters').optional(),
  PASSWORD_HASH_MEMORY_KIB: passwordCost('PASSWORD_HASH_MEMORY_KIB', MIN_PASSWORD_COST.memoryKiB, 2 * 1024 * 1024),
  PASSWORD_HASH_PASSES: passwordCost('PASSWORD_HASH_PASSES', MIN_PASSWORD_COST.passes, 10),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, 'SMTP_URL must be a URL like smtp://user:password@mail.example.com:587 (or smtps://)')
    .optional(),
  MAIL_FROM: nonEmpty('MAIL_FROM').optional(),
  METRICS_TOKEN: z.string().min(32, 'METRICS_TOKEN must be at least 32 characters').optional(),
  BOTCHECK_PROVIDER: z
    .enum(BOTCHECK_PROVIDERS, { error: `BOTCHECK_PROVIDER must be one of ${BOTCHECK_PROVIDERS.join(', ')}` })
    .default('altcha'),
  BOTCHECK_SITE_KEY: nonEmpty('BOTCHECK_SITE_KEY').optional(),
  BOTCHECK_SECRET_KEY: nonEmpty('BOTCHECK_SECRET_KEY').optional(),
  BOTCHECK_VERIFY_URL: z.url({ error: "BOTCHECK_VERIFY_URL must be a URL (the provider's siteverify endpoint)" }).optional(),
  BOTCHECK_SCRIPT_URL: z.url({ error: "BOTCHECK_SCRIPT_URL must be a URL (the provider's widget script)" }).optional(),
  BOTCHECK_MIN_SCORE: z.coerce
    .number({ error: 'BOTCHECK_MIN_SCORE must be a number' })
    .min(0, 'BOTCHECK_MIN_SCORE must be between 0 and 1')
    .max(1, 'BOTCHECK_MIN_SCORE must be between 0 and 1')
    .default(0.5),
  BOTCHECK_VERIFY_TIMEOUT_MS: intBetween('BOTCHECK_VERIFY_TIMEOUT_MS', 1, MAX_BOTCHECK_VERIFY_TIMEOUT_MS).default(5000),
  BOTCHECK_HOSTNAMES: z.string().optional(),
  BOTCHECK_ON: z.string().optional(),
  BOTCHECK_CHECKBOX_ON: z.string().optional(),
  BOTCHECK_CHECKBOX_SITE_KEY: nonEmpty('BOTCHECK_CHECKBOX_SITE_KEY').optional(),
  BOTCHECK_CHECKBOX_SECRET_KEY: nonEmpty('BOTCHECK_CHECKBOX_SECRET_KEY').optional(),
  BOTCHECK_FAIL_OPEN: z.string().optional(),
  BOTCHECK_ALERT_PROVIDER: z
    .enum(ALERT_PROVIDERS, { error: `BOTCHECK_ALERT_PROVIDER must be one of ${ALERT_PROVIDERS.join(', ')}` })
    .optional(),
  BOTCHECK_ALERT_SITE_KEY: nonEmpty('BOTCHECK_ALERT_SITE_KEY').optional(),
  BOTCHECK_ALERT_SECRET_KEY: nonEmpty('BOTCHECK_ALERT_SECRET_KEY').optional(),
  BOTCHECK_ALERT_VERIFY_URL: z
    .url({ error: "BOTCHECK_ALERT_VERIFY_URL must be a URL (the provider's siteverify endpoint)" })
    .optional(),
  BOTCHECK_ALERT_SCRIPT_URL: z
    .url({ error: "BOTCHECK_ALERT_SCRIPT_URL must be a URL (the provider's widget script)" })
    .optional(),
  BOTCHECK_SECRET: z.string().min(32, 'BOTCHECK_SECRET must be at least 32 characters').optional(),
  BOTCHECK_MAX_COUNTER: positiveInt('BOTCHECK_MAX_COUNTER').default(20_000),
  BOTCHECK_ELEVATED_COST_FACTOR: positiveInt('BOTCHECK_ELEVATED_COST_FACTOR').default(10),
  BOTCHECK_CHALLENGE_TTL_SECONDS: positiveInt('BOTCHECK_CHALLENGE_TTL_SECONDS').default(120),
  BOTCHECK_ANCHOR_TIMEOUT_MS: positiveInt('BOTCHECK_ANCHOR_TIMEOUT_MS').default(20_000),
  BOTCHECK_EXECUTE_TIMEOUT_MS: positiveInt('BOTCHECK_EXECUTE_TIMEOUT_MS').default(15_000),
  THREE_D_SECURE_REQUIRED_ABOVE: z.coerce
    .number({ error: 'THREE_D_SECURE_REQUIRED_ABOVE must be a number' })
    .int('THREE_D_SECURE_REQUIRED_ABOVE must be a whole number of minor units (2000 = 20.00)')
    .min(0, 'THREE_D_SECURE_REQUIRED_ABOVE must be 0 or more')
    .optional(),
  CHECKOUT_CARDHOLDER_NAME: z
    .enum(['optional', 'required'], { error: 'CHECKOUT_CARDHOLDER_NAME must be optional or required' })
    .default('optional'),
  RATE_LIMIT_PAYMENTS_PER_MINUTE: positiveInt('RATE_LIMIT_PAYMENTS_PER_MINUTE').default(120),
  RATE_LIMIT_ACCOUNTS_PER_MINUTE: positiveInt('RATE_LIMIT_ACCOUNTS_PER_MINUTE').default(120),
  VELOCITY_LIMIT_FACTOR: positiveInt('VELOCITY_LIMIT_FACTOR').default(1),
  SHOP_ALERT_DECLINES: positiveInt('SHOP_ALERT_DECLINES').default(DEFAULT_VELOCITY_LIMITS.shopAlert.max),
  GATEWAY_TIMEOUT_SECONDS: intBetween('GATEWAY_TIMEOUT_SECONDS', 1, MAX_GATEWAY_TIMEOUT_SECONDS).default(20),
  RECONCILE_INTERVAL_SECONDS: z.coerce
    .number({ error: 'RECONCILE_INTERVAL_SECONDS must be a number' })
    .int('RECONCILE_INTERVAL_SECONDS must be a whole number')
    .min(0, 'RECONCILE_INTERVAL_SECONDS must be 0 (off) or more')
    .default(60),
  SWEEP_INTERVAL_SECONDS: z.coerce
    .number({ error: 'SWEEP_INTERVAL_SECONDS must be a number' })
    .int('SWEEP_INTERVAL_SECONDS must be a whole number')
    .min(1, 'SWEEP_INTERVAL_SECONDS must be 1 or more')
    .default(600),
  TRUST_PROXY: z.string().trim().optional(),
  WEB_DIST: nonEmpty('WEB_DIST').optional(),
  LOG_FILE: nonEmpty('LOG_FILE').optional(),
  LOG_LEVEL: logLevel('LOG_LEVEL').default('info'),
  LOG_TERMINAL_LEVEL: logLevel('LOG_TERMINAL_LEVEL').optional(),
  DEMO_SEED: bool('DEMO_SEED').optional(),
  DEMO_SHOPPER_PASSWORD: z
    .string()
    .min(8, 'DEMO_SHOPPER_PASSWORD must be at least 8 characters')
    .default(DEFAULT_DEMO_PASSWORDS.shopper),
  DEMO_ADMIN_PASSWORD: z
    .string()
    .min(8, 'DEMO_ADMIN_PASSWORD must be at least 8 characters')
    .default(DEFAULT_DEMO_PASSWORDS.admin),
};

type Fields = typeof fields;
type Parsed = { [K in keyof Fields]: z.output<Fields[K]> };

/** Braintree's browser-facing origins (hosted fields, client API), for the CSP with the real provider. */
const BRAINTREE_ORIGINS = {
  sandbox: [
    'https://assets.braintreegateway.com',
    'https://api.sandbox.braintreegateway.com',
    'https://client-analytics.sandbox.braintreegateway.com',
  ],
  production: [
    'https://assets.braintreegateway.com',
    'https://api.braintreegateway.com',
    'https://client-analytics.braintreegateway.com',
  ],
} as const;

/** Environment variables -> typed config. Throws one ConfigError listing every bad variable. */
export function loadConfig(env: Env): Config {
  const problems: string[] = [];
  const parsed: Partial<Record<keyof Fields, unknown>> = {};
  for (const name of Object.keys(fields) as (keyof Fields)[]) {
    const raw = env[name];
    const result = fields[name].safeParse(raw === '' ? undefined : raw);
    if (result.success) parsed[name] = result.data;
    else problems.push(result.error.issues[0]?.message ?? `${name} is invalid`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const v = parsed as Parsed;

  const database = parseDatabaseUrl(v.DATABASE_URL, problems);
  const gateway = parseGateway(v, problems);

  let gatewayOrigins: string[] = [];
  if (v.GATEWAY_ORIGIN !== undefined) {
    for (const o of v.GATEWAY_ORIGIN.split(/[\s,]+/).filter(Boolean)) {
      const r = origin('GATEWAY_ORIGIN').safeParse(o);
      if (r.success) gatewayOrigins.push(o.replace(/\/$/, ''));
      else problems.push(r.error.issues[0]?.message ?? 'GATEWAY_ORIGIN is invalid');
    }
  } else if (gateway?.kind === 'custom') {
    // As a browser writes it (no default port, the host in lower case), as GATEWAY_ORIGIN's must be: GET /api/config
    // compares it with the origin of the assetsUrl the gateway's client tokens name.
    const derived = `${gateway.ssl ? 'https' : 'http'}://${gateway.host}:${gateway.port}`;
    gatewayOrigins = [URL.canParse(derived) ? new URL(derived).origin : derived];
  } else if (gateway?.kind === 'braintree') {
    gatewayOrigins = [...BRAINTREE_ORIGINS[gateway.environment]];
  }

  // The demo seeds itself on a sandbox, not next to real money, where its published passwords would be an open door.
  const production = gateway?.kind === 'braintree' && gateway.environment === 'production';
  const seedDemo = v.DEMO_SEED ?? !production;
  if (
    seedDemo &&
    production &&
    (v.DEMO_SHOPPER_PASSWORD === DEFAULT_DEMO_PASSWORDS.shopper || v.DEMO_ADMIN_PASSWORD === DEFAULT_DEMO_PASSWORDS.admin)
  ) {
    problems.push(
      'DEMO_SEED=true with the production gateway needs DEMO_SHOPPER_PASSWORD and DEMO_ADMIN_PASSWORD of your own (the defaults are public)',
    );
  }

  const trustProxy = parseTrustProxy(v.TRUST_PROXY, problems);
  const siteverify = parseSiteverify(v, problems);
  const botcheckActions = parseBotcheckActions(v.BOTCHECK_ON, problems);
  const failOpen = parseFailOpen(v.BOTCHECK_FAIL_OPEN, problems);
  const alert = parseAlert(v, problems);
  const hostnames = (v.BOTCHECK_HOSTNAMES ?? (v.PUBLIC_URL === undefined ? '' : new URL(v.PUBLIC_URL).hostname))
    .split(/[\s,]+/)
    .filter(Boolean);

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    port: v.PORT,
    host: v.HOST,
    database: database as DatabaseConfig,
    gateway,
    gatewayOrigins,
    // Without a configured secret, sessions and challenges last as long as the process: fine for a demo.
    sessionSecret: v.SESSION_SECRET ?? randomBytes(32).toString('hex'),
    passwordCost: { memoryKiB: v.PASSWORD_HASH_MEMORY_KIB, passes: v.PASSWORD_HASH_PASSES },
    metricsToken: v.METRICS_TOKEN ?? null,
    secureCookies: v.PUBLIC_URL?.startsWith('https:') ?? false,
    publicUrl: v.PUBLIC_URL === undefined ? null : new URL(v.PUBLIC_URL).origin,
    mail: {
      smtpUrl: v.SMTP_URL ?? null,
      from: v.MAIL_FROM ?? `Kassa <no-reply@${v.PUBLIC_URL === undefined ? 'localhost' : new URL(v.PUBLIC_URL).hostname}>`,
    },
    botcheck: {
      provider: v.BOTCHECK_PROVIDER,
      secret: v.BOTCHECK_SECRET ?? randomBytes(32).toString('hex'),
      maxCounter: v.BOTCHECK_MAX_COUNTER,
      elevatedCostFactor: v.BOTCHECK_ELEVATED_COST_FACTOR,
      challengeTtlSeconds: v.BOTCHECK_CHALLENGE_TTL_SECONDS,
      anchorTimeoutMs: v.BOTCHECK_ANCHOR_TIMEOUT_MS,
      executeTimeoutMs: v.BOTCHECK_EXECUTE_TIMEOUT_MS,
      siteverify,
      hostnames,
      widgetOrigins: [
        ...new Set([...widgetOrigins(v.BOTCHECK_PROVIDER, siteverify), ...(alert === null ? [] : alertOrigins(alert))]),
      ],
      actions: botcheckActions,
      failOpen,
      alert,
    },
    checkout: { cardholderName: v.CHECKOUT_CARDHOLDER_NAME },
    threeDSecureRequiredAbove: v.THREE_D_SECURE_REQUIRED_ABOVE ?? null,
    rateLimits: { paymentsPerMinute: v.RATE_LIMIT_PAYMENTS_PER_MINUTE, accountsPerMinute: v.RATE_LIMIT_ACCOUNTS_PER_MINUTE },
    velocity: scaleLimits(
      { ...DEFAULT_VELOCITY_LIMITS, shopAlert: { ...DEFAULT_VELOCITY_LIMITS.shopAlert, max: v.SHOP_ALERT_DECLINES } },
      v.VELOCITY_LIMIT_FACTOR,
    ),
    reconcileIntervalMs: v.RECONCILE_INTERVAL_SECONDS * 1000,
    sweepIntervalMs: v.SWEEP_INTERVAL_SECONDS * 1000,
    gatewayTimeoutMs: v.GATEWAY_TIMEOUT_SECONDS * 1000,
    staleAttemptMs: staleAttemptMsFor(v.GATEWAY_TIMEOUT_SECONDS * 1000),
    trustProxy,
    webDist: v.WEB_DIST ?? null,
    logFile: v.LOG_FILE ?? null,
    logLevel: v.LOG_LEVEL,
    logTerminalLevel: v.LOG_TERMINAL_LEVEL ?? v.LOG_LEVEL,
    demo: { seed: seedDemo, shopperPassword: v.DEMO_SHOPPER_PASSWORD, adminPassword: v.DEMO_ADMIN_PASSWORD },
  };
}

/** A third-party provider needs its two keys; its endpoints default to the provider's own. */
function parseSiteverify(v: Parsed, problems: string[]): SiteverifyConfig | null {
  const provider = v.BOTCHECK_PROVIDER;
  const checkbox = parseCheckbox(v, problems);
  if (provider === 'altcha') return null;
  if (v.BOTCHECK_SITE_KEY === undefined)
    problems.push(`BOTCHECK_SITE_KEY is required with BOTCHECK_PROVIDER=${provider} (the provider's site key)`);
  if (v.BOTCHECK_SECRET_KEY === undefined)
    problems.push(`BOTCHECK_SECRET_KEY is required with BOTCHECK_PROVIDER=${provider} (the provider's secret key)`);
  const facts = SITEVERIFY_PROVIDERS[provider];
  return {
    siteKey: v.BOTCHECK_SITE_KEY ?? '',
    secretKey: v.BOTCHECK_SECRET_KEY ?? '',
    checkbox,
    verifyUrl: v.BOTCHECK_VERIFY_URL ?? facts.verifyUrl,
    scriptUrl: v.BOTCHECK_SCRIPT_URL ?? facts.scriptUrl,
    minScore: v.BOTCHECK_MIN_SCORE,
    verifyTimeoutMs: v.BOTCHECK_VERIFY_TIMEOUT_MS,
  };
}

/** BOTCHECK_ALERT_PROVIDER: the interactive check of a shop under attack, with its own key pair. */
function parseAlert(v: Parsed, problems: string[]): AlertBotcheckConfig | null {
  const provider = v.BOTCHECK_ALERT_PROVIDER;
  if (provider === undefined) return null;
  if (v.BOTCHECK_ALERT_SITE_KEY === undefined)
    problems.push(`BOTCHECK_ALERT_SITE_KEY is required with BOTCHECK_ALERT_PROVIDER=${provider} (the provider's site key)`);
  if (v.BOTCHECK_ALERT_SECRET_KEY === undefined)
    problems.push(`BOTCHECK_ALERT_SECRET_KEY is required with BOTCHECK_ALERT_PROVIDER=${provider} (the provider's secret key)`);
  const facts = SITEVERIFY_PROVIDERS[alertSiteverifyProvider(provider)];
  return {
    provider,
    siteKey: v.BOTCHECK_ALERT_SITE_KEY ?? '',
    secretKey: v.BOTCHECK_ALERT_SECRET_KEY ?? '',
    verifyUrl: v.BOTCHECK_ALERT_VERIFY_URL ?? facts.verifyUrl,
    scriptUrl: v.BOTCHECK_ALERT_SCRIPT_URL ?? facts.scriptUrl,
    verifyTimeoutMs: v.BOTCHECK_VERIFY_TIMEOUT_MS,
  };
}

/** BOTCHECK_CHECKBOX_ON (reCAPTCHA v2): the actions shown the checkbox, with its key pair (default: the main one). */
function parseCheckbox(v: Parsed, problems: string[]): CheckboxConfig | null {
  const listed = (v.BOTCHECK_CHECKBOX_ON ?? '').split(/[\s,]+/).filter(Boolean);
  if (listed.length === 0) return null;
  if (v.BOTCHECK_PROVIDER !== 'recaptcha-v2') {
    problems.push("BOTCHECK_CHECKBOX_ON needs BOTCHECK_PROVIDER=recaptcha-v2 (the checkbox is reCAPTCHA v2's)");
    return null;
  }
  const unknown = listed.filter((action) => !(BOTCHECK_ACTIONS as readonly string[]).includes(action));
  if (unknown.length > 0)
    problems.push(`BOTCHECK_CHECKBOX_ON must list actions among ${BOTCHECK_ACTIONS.join(', ')} (not ${unknown.join(', ')})`);
  return {
    actions: BOTCHECK_ACTIONS.filter((action) => listed.includes(action)),
    siteKey: v.BOTCHECK_CHECKBOX_SITE_KEY ?? v.BOTCHECK_SITE_KEY ?? '',
    secretKey: v.BOTCHECK_CHECKBOX_SECRET_KEY ?? v.BOTCHECK_SECRET_KEY ?? '',
  };
}

/** BOTCHECK_ON: the actions guarded by the bot-check, comma-separated; all by default; payments cannot be left out. */
function parseBotcheckActions(raw: string | undefined, problems: string[]): BotcheckAction[] {
  if (raw === undefined) return [...BOTCHECK_ACTIONS];
  const listed = raw.split(/[\s,]+/).filter(Boolean);
  const unknown = listed.filter((action) => !(BOTCHECK_ACTIONS as readonly string[]).includes(action));
  if (unknown.length > 0)
    problems.push(`BOTCHECK_ON must list actions among ${BOTCHECK_ACTIONS.join(', ')} (not ${unknown.join(', ')})`);
  else if (!listed.includes('payment')) problems.push('BOTCHECK_ON must include payment: payments always need the bot-check');
  return BOTCHECK_ACTIONS.filter((action) => listed.includes(action));
}

/** BOTCHECK_FAIL_OPEN: sign_in, sign_up, save_card may be let through when the provider is down; payments never. */
function parseFailOpen(raw: string | undefined, problems: string[]): BotcheckAction[] {
  const listed = (raw ?? '').split(/[\s,]+/).filter(Boolean);
  const allowed: readonly string[] = BOTCHECK_ACTIONS.filter((action) => action !== 'payment');
  const wrong = listed.filter((action) => !allowed.includes(action));
  if (wrong.length > 0)
    problems.push(`BOTCHECK_FAIL_OPEN may list ${allowed.join(', ')} (not ${wrong.join(', ')}): payments always fail closed`);
  return BOTCHECK_ACTIONS.filter((action) => listed.includes(action) && action !== 'payment');
}

/** The alert provider's published origins, or its configured script's. */
function alertOrigins(alert: AlertBotcheckConfig): string[] {
  const facts = SITEVERIFY_PROVIDERS[alertSiteverifyProvider(alert.provider)];
  return alert.scriptUrl === facts.scriptUrl ? [...facts.origins] : [new URL(alert.scriptUrl).origin];
}

/** The provider's published origins, or the one its script is configured to come from (a self-hosted stand-in). */
function widgetOrigins(provider: BotcheckProvider, siteverify: SiteverifyConfig | null): string[] {
  if (provider === 'altcha' || siteverify === null) return [];
  const facts = SITEVERIFY_PROVIDERS[provider];
  return siteverify.scriptUrl === facts.scriptUrl ? [...facts.origins] : [new URL(siteverify.scriptUrl).origin];
}

/** proxy-addr's names for the private ranges (loopback 127.0.0.1/8 and ::1, link-local, unique-local/RFC 1918). */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address, prefix, extra] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: unset, `false` or `0` trusts no proxy (the client IP is the peer's address); a whole number N trusts
 * the N proxies in front of the server (every request must come through them); otherwise the proxies' addresses and
 * ranges, comma-separated (`10.0.0.0/8, 192.168.1.2, loopback`). `true` ("believe any peer") is refused: with it a
 * client picks its own address by sending X-Forwarded-For, and per-IP limits mean nothing.
 */
function parseTrustProxy(raw: string | undefined, problems: string[]): TrustProxy {
  if (raw === undefined || raw === 'false' || raw === '0') return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  if (raw === 'true' || raw === '1' || raw === 'yes') {
    problems.push(
      "TRUST_PROXY=true would believe any client's X-Forwarded-For: give the number of proxies in front of the server (e.g. 1) or their addresses (e.g. 10.0.0.0/8)",
    );
    return false;
  }
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const bad = entries.filter((entry) => !isAddressOrRange(entry));
  if (entries.length === 0 || bad.length > 0) {
    problems.push(
      `TRUST_PROXY must be false, a number of proxies, or addresses and ranges like 10.0.0.0/8 (not ${JSON.stringify(bad.join(', ') || raw)})`,
    );
    return false;
  }
  return entries;
}

function parseDatabaseUrl(url: string, problems: string[]): DatabaseConfig | null {
  if (/^postgres(ql)?:\/\//.test(url)) {
    try {
      new URL(url);
      return { engine: 'postgres', url };
    } catch {
      problems.push('DATABASE_URL must be a valid postgres:// URL or a file path for SQLite');
      return null;
    }
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    problems.push('DATABASE_URL must be a file path (SQLite) or a postgres:// / postgresql:// URL');
    return null;
  }
  return { engine: 'sqlite', file: url.replace(/^(sqlite|file):/, '') };
}

function parseGateway(v: Parsed, problems: string[]): GatewayConfig | null {
  const credentials = {
    GATEWAY_MERCHANT_ID: v.GATEWAY_MERCHANT_ID,
    GATEWAY_PUBLIC_KEY: v.GATEWAY_PUBLIC_KEY,
    GATEWAY_PRIVATE_KEY: v.GATEWAY_PRIVATE_KEY,
  };
  const anyGiven =
    Object.values(credentials).some((c) => c !== undefined) ||
    v.GATEWAY_HOST !== undefined ||
    v.GATEWAY_ENVIRONMENT !== undefined;
  // No gateway at all: the server still runs (catalogue, accounts, orders); checkout answers 503.
  if (!anyGiven) return null;
  for (const [name, value] of Object.entries(credentials))
    if (value === undefined) problems.push(`${name} is required when a gateway is configured`);
  if (v.GATEWAY_HOST !== undefined && v.GATEWAY_ENVIRONMENT !== undefined) {
    problems.push(
      'GATEWAY_ENVIRONMENT and GATEWAY_HOST exclude each other: set GATEWAY_HOST/GATEWAY_PORT for a local gateway, or GATEWAY_ENVIRONMENT for Braintree',
    );
    return null;
  }
  if (v.GATEWAY_MERCHANT_ID === undefined || v.GATEWAY_PUBLIC_KEY === undefined || v.GATEWAY_PRIVATE_KEY === undefined)
    return null;
  const keys: GatewayKeys = {
    merchantId: v.GATEWAY_MERCHANT_ID,
    publicKey: v.GATEWAY_PUBLIC_KEY,
    privateKey: v.GATEWAY_PRIVATE_KEY,
    ...(v.GATEWAY_MERCHANT_ACCOUNT_ID !== undefined ? { merchantAccountId: v.GATEWAY_MERCHANT_ACCOUNT_ID } : {}),
  };
  if (v.GATEWAY_ENVIRONMENT !== undefined) return { kind: 'braintree', environment: v.GATEWAY_ENVIRONMENT, ...keys };
  if (v.GATEWAY_HOST === undefined) {
    problems.push('GATEWAY_HOST (with GATEWAY_PORT) or GATEWAY_ENVIRONMENT is required when gateway credentials are set');
    return null;
  }
  if (v.GATEWAY_PORT === undefined) {
    problems.push('GATEWAY_PORT is required when GATEWAY_HOST is set');
    return null;
  }
  return { kind: 'custom', host: v.GATEWAY_HOST, port: v.GATEWAY_PORT, ssl: v.GATEWAY_SSL, ...keys };
}

/**
 * How long a pending payment attempt must go untouched before another request or the reconciler may take it over:
 * longer than a request can hold it, which is a sale, a void and a look-up, each bounded by the gateway time-out, plus
 * a margin. 75 s with the default 20 s time-out (it was a fixed 5 minutes, issue 10: meanwhile a retry got 409 and the
 * shopper waited for an outcome nobody told them about).
 */
export function staleAttemptMsFor(gatewayTimeoutMs: number): number {
  return 3 * gatewayTimeoutMs + 15_000;
}
