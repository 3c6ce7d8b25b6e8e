import { CHALLENGES, WALLETS } from './core/merchant-settings.ts';
import type { MerchantSettings } from './core/merchant-settings.ts';
import type { SandboxOptions } from './index.ts';
import { planConfigProblems } from './core/plans.ts';
import type { PlanConfig } from './core/plans.ts';

// The sandbox's environment variables, read in one place for its own CLI (`npm run sandbox`) and for the product's
// start script, which runs it in-process. Every bad value is named; none is silently replaced by a default.

const DEMO_SETTLEMENT_DELAY_S = 60;

/** Thrown with one line per bad variable. */
export class SandboxEnvError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'SandboxEnvError';
  }
}

const CARD_ID_SECRET_MIN_LENGTH = 32;

export function sandboxOptionsFromEnv(env: Record<string, string | undefined>): SandboxOptions {
  const problems: string[] = [];
  const given = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);

  const rawPort = given('SANDBOX_PORT');
  const port = rawPort === undefined ? 8090 : Number(rawPort);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    problems.push(`SANDBOX_PORT must be a port number (0-65535), got "${rawPort}"`);

  // Kassa's demo catalogue is priced in euros, and a merchant account charges in one currency.
  const currencyIsoCode = given('SANDBOX_CURRENCY') ?? 'EUR';
  if (!/^[A-Z]{3}$/.test(currencyIsoCode))
    problems.push(`SANDBOX_CURRENCY must be an ISO 4217 code such as EUR or USD, got "${currencyIsoCode}"`);

  const ids: Partial<Pick<SandboxOptions, 'merchantId' | 'publicKey' | 'privateKey'>> = {};
  for (const [name, option] of [
    ['SANDBOX_MERCHANT_ID', 'merchantId'],
    ['SANDBOX_PUBLIC_KEY', 'publicKey'],
    ['SANDBOX_PRIVATE_KEY', 'privateKey'],
  ] as const) {
    const value = given(name);
    if (value === undefined) continue;
    if (/^[A-Za-z0-9_-]+$/.test(value)) ids[option] = value;
    else problems.push(`${name} may contain only letters, digits, "_" and "-"`);
  }

  // `batch` (the provider's daily settlement batch) or whole seconds after submission. Kassa's demo wants to see its
  // payments settle, so unset means one minute here (startSandbox alone defaults to the daily batch).
  const rawSettlement = given('SANDBOX_SETTLEMENT_DELAY') ?? String(DEMO_SETTLEMENT_DELAY_S);
  let settlementDelayMs: number | undefined;
  if (/^\d{1,7}$/.test(rawSettlement)) settlementDelayMs = Number(rawSettlement) * 1000;
  else if (rawSettlement !== 'batch') {
    problems.push(`SANDBOX_SETTLEMENT_DELAY must be "batch" or a whole number of seconds, got "${rawSettlement}"`);
  }

  // Where webhook notifications go (the product's webhook endpoint); unset: none are sent.
  const webhookUrl = given('SANDBOX_WEBHOOK_URL');
  if (webhookUrl !== undefined && !/^https?:\/\/\S+$/.test(webhookUrl)) {
    problems.push(`SANDBOX_WEBHOOK_URL must be an http(s) URL, got "${webhookUrl}"`);
  }

  // A path (relative to the working folder); unset keeps the state in memory.
  const dataFile = given('SANDBOX_DATA_FILE');

  // Long enough that it cannot be guessed: with it, the state file's card identifiers could be tried back to numbers.
  const cardIdentifierSecret = given('SANDBOX_CARD_ID_SECRET');
  if (cardIdentifierSecret !== undefined && cardIdentifierSecret.length < CARD_ID_SECRET_MIN_LENGTH) {
    problems.push(`SANDBOX_CARD_ID_SECRET must be at least ${CARD_ID_SECRET_MIN_LENGTH} characters long`);
  }

  // TEST ONLY: the fault control endpoint, for e2e runs of `npm start`.
  const testControls = given('SANDBOX_TEST_CONTROLS');
  if (testControls !== undefined && testControls !== '0' && testControls !== '1') {
    problems.push(`SANDBOX_TEST_CONTROLS must be 1 (on) or 0 (off), got "${testControls}"`);
  }
  // A JSON array of plans (README "Plans and subscriptions"); unset keeps the demo plan.
  let plans: PlanConfig[] | undefined;
  const rawPlans = given('SANDBOX_PLANS');
  if (rawPlans !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawPlans);
    } catch {
      parsed = undefined;
    }
    if (!Array.isArray(parsed)) {
      problems.push('SANDBOX_PLANS must be a JSON array of plans, e.g. [{"id":"coffee-monthly","name":"Coffee","price":2450}]');
    } else {
      const planProblems = planConfigProblems(parsed);
      if (planProblems.length > 0) problems.push(...planProblems.map((problem) => `SANDBOX_PLANS: ${problem}`));
      else plans = parsed as PlanConfig[];
    }
  }

  // The AVS/CVV rules the merchant turned on: "cvv", "avs", "cvv,avs"; unset or "none" for none.
  const rawRules = given('SANDBOX_CARD_RULES');
  const rules = rawRules === undefined || rawRules === 'none' ? [] : rawRules.split(',').map((rule) => rule.trim());
  const unknownRules = rules.filter((rule) => rule !== 'cvv' && rule !== 'avs');
  if (unknownRules.length > 0) problems.push(`SANDBOX_CARD_RULES must list "cvv" and/or "avs" (or be "none"), got "${rawRules}"`);

  // The merchant settings the client configuration reports; unset keeps a fresh provider account's.
  const merchantSettings: Partial<MerchantSettings> = {};
  const challenges = listFromEnv(given('SANDBOX_CHALLENGES'), CHALLENGES, 'SANDBOX_CHALLENGES', problems);
  if (challenges !== undefined) merchantSettings.challenges = challenges;
  const wallets = listFromEnv(given('SANDBOX_WALLETS'), WALLETS, 'SANDBOX_WALLETS', problems);
  if (wallets !== undefined) merchantSettings.wallets = wallets;
  const threeDSecure = given('SANDBOX_THREE_D_SECURE');
  if (threeDSecure === '0' || threeDSecure === '1') merchantSettings.threeDSecure = threeDSecure === '1';
  else if (threeDSecure !== undefined) problems.push(`SANDBOX_THREE_D_SECURE must be 1 (on) or 0 (off), got "${threeDSecure}"`);

  if (problems.length > 0) throw new SandboxEnvError(problems);
  return {
    host: given('SANDBOX_HOST') ?? '127.0.0.1',
    port,
    currencyIsoCode,
    ...ids,
    ...(dataFile === undefined ? {} : { dataFile }),
    ...(cardIdentifierSecret === undefined ? {} : { cardIdentifierSecret }),
    ...(testControls === '1' ? { testControls: true } : {}),
    ...(plans === undefined ? {} : { plans }),
    ...(rules.length === 0 ? {} : { cardRules: { cvv: rules.includes('cvv'), avs: rules.includes('avs') } }),
    ...(Object.keys(merchantSettings).length === 0 ? {} : { merchantSettings }),
    ...(settlementDelayMs === undefined ? {} : { settlementDelayMs }),
    ...(webhookUrl === undefined ? {} : { webhookUrl }),
  };
}

/** "a,b" -> ['a', 'b'], "none" -> []; undefined when unset. */
function listFromEnv<T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  name: string,
  problems: string[],
): T[] | undefined {
  if (value === undefined) return undefined;
  if (value === 'none') return [];
  const items = value.split(',').map((item) => item.trim());
  if (items.every((item) => allowed.includes(item as T))) return items as T[];
  problems.push(`${name} must be "none" or a comma-separated list of ${allowed.join(', ')}, got "${value}"`);
  return undefined;
}
