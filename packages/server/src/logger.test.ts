import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { createLogger } from './logger.ts';

describe('createLogger', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** The messages a logger made from `env` wrote to the terminal and to LOG_FILE after a debug and an info line. */
  function written(env: Record<string, string>): { terminal: string[]; file: string[] } {
    const dir = mkdtempSync(join(tmpdir(), 'kassa-logger-'));
    dirs.push(dir);
    const logFile = join(dir, 'kassa.log');
    const terminal: string[] = [];
    const logger = createLogger(loadConfig({ LOG_FILE: logFile, ...env }), {
      write: (line: string) => terminal.push((JSON.parse(line) as { msg: string }).msg),
    });
    logger.debug('request completed');
    logger.info('payment succeeded');
    const file = readFileSync(logFile, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    return { terminal, file };
  }

  it('writes LOG_LEVEL to the terminal and the file alike by default', () => {
    expect(written({ LOG_LEVEL: 'debug' })).toEqual({
      terminal: ['request completed', 'payment succeeded'],
      file: ['request completed', 'payment succeeded'],
    });
  });

  it('keeps the lines under LOG_TERMINAL_LEVEL off the terminal, not out of LOG_FILE', () => {
    expect(written({ LOG_LEVEL: 'debug', LOG_TERMINAL_LEVEL: 'info' })).toEqual({
      terminal: ['payment succeeded'],
      file: ['request completed', 'payment succeeded'],
    });
    expect(written({ LOG_LEVEL: 'debug', LOG_TERMINAL_LEVEL: 'silent' })).toEqual({
      terminal: [],
      file: ['request completed', 'payment succeeded'],
    });
  });

  it('never writes more to the terminal than LOG_LEVEL lets through', () => {
    expect(written({ LOG_LEVEL: 'info', LOG_TERMINAL_LEVEL: 'debug' })).toEqual({
      terminal: ['payment succeeded'],
      file: ['payment succeeded'],
    });
  });

  it('without LOG_FILE, logs at the terminal level only', () => {
    const logger = createLogger(loadConfig({ LOG_LEVEL: 'debug', LOG_TERMINAL_LEVEL: 'info' }), { write: () => {} });
    expect([logger.isLevelEnabled('debug'), logger.isLevelEnabled('info')]).toEqual([false, true]);
  });
});
