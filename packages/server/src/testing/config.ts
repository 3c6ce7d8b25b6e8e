import type { Config, DatabaseConfig, GatewayConfig } from '../config.ts';
import { loadConfig } from '../config.ts';
import type { PasswordCost } from '../accounts/passwords.ts';

/**
 * The proof of work's difficulty in tests: a hundredth of the default (20,000). Every payment, save and sign-in of a
 * test solves one in the test's own process, as the browser would; the counters a solution needs, and what raises them
 * (the shop alert, a failing client: ten times more), are tested against this value, and no test's subject is the
 * cost itself. At 2,000 the solving was the largest share of the card-testing file's CPU.
 */
export const TEST_BOTCHECK_MAX_COUNTER = 200;

/**
 * Argon2id's cost in tests: 256 KiB and one pass, 0.2 ms of CPU a hash instead of 24-32 ms at the production setting (a
 * floor that the environment cannot lower: config.ts), which the sign-in of nearly every test paid. Stored hashes carry
 * their own cost (src/accounts/passwords.test.ts); the e2e and bench servers, started from the environment, keep the
 * production setting.
 */
export const TEST_PASSWORD_COST: PasswordCost = { memoryKiB: 256, passes: 1 };

/**
 * A config for tests: the given database and gateway, quiet logs, cheap password hashes, demo data seeded, the bot-check on payments only
 * (the tests of sign-in, sign-up and saving cards with it turn it on: src/security/botcheck-actions.test.ts).
 */
export function testConfig(
  database: DatabaseConfig,
  gateway: GatewayConfig | null = null,
  overrides: Partial<Config> = {},
): Config {
  const base = loadConfig({
    LOG_LEVEL: 'silent',
    BOTCHECK_MAX_COUNTER: String(TEST_BOTCHECK_MAX_COUNTER),
    BOTCHECK_ON: 'payment',
  });
  return {
    ...base,
    database,
    gateway,
    gatewayOrigins: gateway?.kind === 'custom' ? [`http://${gateway.host}:${gateway.port}`] : [],
    passwordCost: TEST_PASSWORD_COST,
    ...overrides,
  };
}
