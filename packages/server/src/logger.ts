import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import pino from 'pino';
import type { Logger } from 'pino';
import type { Config } from './config.ts';

/**
 * Structured logs. Request bodies are never logged (Fastify logs method, url and status only); headers that
 * carry credentials or keys are redacted in case anything logs them.
 */
export const REDACT_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["idempotency-key"]',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'headers.authorization',
  'headers["idempotency-key"]',
];

export function createLogger(config: Pick<Config, 'logLevel' | 'logFile'>): Logger {
  const options = { level: config.logLevel, redact: { paths: REDACT_PATHS, censor: '[redacted]' } };
  if (config.logFile === null) return pino(options);
  mkdirSync(dirname(config.logFile), { recursive: true });
  // Synchronous file writes: every line is on disk when the request ends (tests and operators grep it).
  return pino(options, pino.multistream([{ stream: process.stdout }, { stream: pino.destination({ dest: config.logFile, sync: true, mkdir: true }) }]));
}
