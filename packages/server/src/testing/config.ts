import type { Config, DatabaseConfig, GatewayConfig } from '../config.ts';
import { loadConfig } from '../config.ts';

/**
 * A config for tests: the given database and gateway, quiet logs, demo data seeded, the bot-check on payments only
 * (the tests of sign-in, sign-up and saving cards with it turn it on: src/security/botcheck-actions.test.ts).
 */
export function testConfig(
  database: DatabaseConfig,
  gateway: GatewayConfig | null = null,
  overrides: Partial<Config> = {},
): Config {
  const base = loadConfig({ LOG_LEVEL: 'silent', BOTCHECK_MAX_COUNTER: '2000', BOTCHECK_ON: 'payment' });
  return {
    ...base,
    database,
    gateway,
    gatewayOrigins: gateway?.kind === 'custom' ? [`http://${gateway.host}:${gateway.port}`] : [],
    ...overrides,
  };
}
