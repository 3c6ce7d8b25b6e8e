import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { LogController } from 'fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import pino from 'pino';
import type { DestinationStream, Logger, LoggerOptions, StreamEntry } from 'pino';
import type { Config, LogLevel } from './config.ts';

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

/**
 * The server's logger: JSON lines to `console` (stdout unless a caller such as `npm start` passes a prettifier), and
 * the same JSON to LOG_FILE when set. The terminal takes the lines at LOG_TERMINAL_LEVEL and above (LOG_LEVEL unless
 * set): with `LOG_LEVEL=debug LOG_TERMINAL_LEVEL=info` the file holds every request line and the terminal none.
 */
export function createLogger(
  config: Pick<Config, 'logLevel' | 'logTerminalLevel' | 'logFile'>,
  console: DestinationStream = process.stdout,
): Logger {
  // The terminal never takes more than LOG_LEVEL lets through.
  const terminalLevel = severity(config.logTerminalLevel) > severity(config.logLevel) ? config.logTerminalLevel : config.logLevel;
  if (config.logFile === null) return pino(loggerOptions(terminalLevel), console);
  mkdirSync(dirname(config.logFile), { recursive: true });
  // Synchronous file writes: every line is on disk when the request ends (tests and operators grep it).
  // Each stream of a multistream filters at info unless told otherwise: give each its level (a silent logger writes
  // nothing, whatever its streams' levels).
  const streams: StreamEntry[] = [
    {
      level: config.logLevel === 'silent' ? 'fatal' : config.logLevel,
      stream: pino.destination({ dest: config.logFile, sync: true, mkdir: true }),
    },
  ];
  if (terminalLevel !== 'silent') streams.push({ level: terminalLevel, stream: console });
  return pino(loggerOptions(config.logLevel), pino.multistream(streams));
}

function loggerOptions(level: LogLevel): LoggerOptions {
  return { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } };
}

/** How severe a level is: a logger or a stream at a level takes the lines at that severity and above. */
function severity(level: LogLevel): number {
  return level === 'silent' ? Number.POSITIVE_INFINITY : (pino.levels.values[level] ?? 0);
}

/**
 * Fastify's per-request lines ("incoming request", "request completed") at debug instead of info: at the default
 * level the log holds what happened to orders and payments, not every asset and poll. A failed request is still
 * logged at error, and LOG_LEVEL=debug brings the request lines back.
 */
export class RequestLinesAtDebug extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (!this.isLogDisabled(request)) request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) super.requestCompleted(error, request, reply);
    else if (!this.isLogDisabled(request)) reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
