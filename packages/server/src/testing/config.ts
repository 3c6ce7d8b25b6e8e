import type { Config, DatabaseConfig, GatewayConfig } from '../config.ts';
import { loadConfig } from '../config.ts';

/** A config for tests: the given database and gateway, quiet logs, demo data seeded. */
export function testConfig(database: DatabaseConfig, gateway: GatewayConfig | null = null, overrides: Partial<Config> = {}): Config {
  const base = loadConfig({ LOG_LEVEL: 'silent', BOTCHECK_MAX_COUNTER: '2000' });
  return { ...base, database, gateway, gatewayOrigins: gateway?.kind === 'custom' ? [`http://${gateway.host}:${gateway.port}`] : [], ...overrides };
}
