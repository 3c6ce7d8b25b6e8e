import { formatAmount } from './transactions.ts';

// Recurring billing plans. On the provider they are made in its Control Panel, not through the API; here they come
// from configuration (`startSandbox({ plans })`, `SANDBOX_PLANS`), with one demo plan when none is given.

export type TrialDurationUnit = 'day' | 'month';

/** A plan as the configuration gives it: the price in minor units of the merchant account's currency. */
export interface PlanConfig {
  id: string;
  name: string;
  description?: string;
  /** Minor units (2450 = 24.50). */
  price: number;
  /** Months between two charges (the provider bills in whole months). Default 1. */
  billingFrequency?: number;
  /** 1-28 or 31 (= the last day of the month); unset: the day the subscription starts. */
  billingDayOfMonth?: number;
  /** Unset: the subscription never expires. */
  numberOfBillingCycles?: number;
  trial?: { duration: number; unit: TrialDurationUnit };
}

export interface Plan {
  id: string;
  name: string;
  description: string | null;
  /** Decimal string in the merchant account's currency, as on the wire. */
  price: string;
  currencyIsoCode: string;
  billingFrequency: number;
  billingDayOfMonth: number | null;
  numberOfBillingCycles: number | null;
  trialPeriod: boolean;
  trialDuration: number | null;
  trialDurationUnit: TrialDurationUnit | null;
}

/** Kassa's demo: the catalogue's coffee beans (24.50) delivered every month. */
export const DEMO_PLANS: readonly PlanConfig[] = [
  {
    id: 'coffee-monthly',
    name: 'Coffee beans, 1 kg, every month',
    description: 'Single-origin beans, medium roast.',
    price: 2450,
  },
];

const PLAN_ID = /^[A-Za-z0-9_-]{1,36}$/;

function isPositiveInteger(value: unknown, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max;
}

/** Every problem with the configured plans, one line each, naming the plan (empty when they are all valid). */
export function planConfigProblems(plans: readonly unknown[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  plans.forEach((raw, index) => {
    const plan = (typeof raw === 'object' && raw !== null ? raw : {}) as Partial<Record<keyof PlanConfig, unknown>>;
    const where = typeof plan.id === 'string' ? `plan "${plan.id}"` : `plan ${index + 1}`;
    if (typeof plan.id !== 'string' || !PLAN_ID.test(plan.id)) {
      problems.push(`${where}: id must be 1-36 letters, digits, "_" or "-"`);
    } else if (seen.has(plan.id)) {
      problems.push(`${where}: the id is used twice`);
    } else {
      seen.add(plan.id);
    }
    if (typeof plan.name !== 'string' || plan.name === '') problems.push(`${where}: name must be a non-empty string`);
    if (plan.description !== undefined && typeof plan.description !== 'string')
      problems.push(`${where}: description must be a string`);
    if (!isPositiveInteger(plan.price, 999_999_999)) problems.push(`${where}: price must be a positive integer in minor units`);
    if (plan.billingFrequency !== undefined && !isPositiveInteger(plan.billingFrequency, 12)) {
      problems.push(`${where}: billingFrequency must be 1-12 (months)`);
    }
    const day = plan.billingDayOfMonth;
    if (day !== undefined && !(isPositiveInteger(day, 28) || day === 31)) {
      problems.push(`${where}: billingDayOfMonth must be 1-28 or 31 (the last day of the month)`);
    }
    if (plan.numberOfBillingCycles !== undefined && !isPositiveInteger(plan.numberOfBillingCycles, 999)) {
      problems.push(`${where}: numberOfBillingCycles must be 1-999`);
    }
    if (plan.trial !== undefined) {
      const trial = (typeof plan.trial === 'object' && plan.trial !== null ? plan.trial : {}) as Record<string, unknown>;
      if (!isPositiveInteger(trial['duration'], 999) || (trial['unit'] !== 'day' && trial['unit'] !== 'month')) {
        problems.push(`${where}: trial must be { duration: 1-999, unit: "day" | "month" }`);
      }
    }
  });
  return problems;
}

export function buildPlan(config: PlanConfig, currencyIsoCode: string): Plan {
  return {
    id: config.id,
    name: config.name,
    description: config.description ?? null,
    price: formatAmount(config.price),
    currencyIsoCode,
    billingFrequency: config.billingFrequency ?? 1,
    billingDayOfMonth: config.billingDayOfMonth ?? null,
    numberOfBillingCycles: config.numberOfBillingCycles ?? null,
    trialPeriod: config.trial !== undefined,
    trialDuration: config.trial?.duration ?? null,
    trialDurationUnit: config.trial?.unit ?? null,
  };
}
