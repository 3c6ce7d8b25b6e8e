import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Other parts' tests spawn the sandbox as a process and read its ready line: that contract is tested here.

describe('main (the sandbox as a process)', () => {
  it('prints the credentials, the environment line and KASSA_SANDBOX_READY, then closes on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./main.ts', import.meta.url))], {
      env: { ...process.env, SANDBOX_PORT: '0', SANDBOX_READY_JSON: '1', SANDBOX_MERCHANT_ID: 'merchant1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
      // Killed when it never says it is ready, so a failed run leaves no sandbox behind.
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`no ready line in: ${output}`));
      }, 20_000);
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        const match = /^KASSA_SANDBOX_READY (.+)$/m.exec(output);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(JSON.parse(match[1]) as Record<string, unknown>);
        }
      });
      child.on('exit', () => reject(new Error(`exited early: ${output}`)));
    });
    try {
      expect(ready).toEqual({
        origin: `http://127.0.0.1:${String(ready['port'])}`,
        host: '127.0.0.1',
        port: expect.any(Number),
        merchantId: 'merchant1',
        publicKey: expect.stringMatching(/^[a-z0-9]+$/),
        privateKey: expect.stringMatching(/^[a-z0-9]+$/),
      });
      expect(output).toContain(`merchant id: merchant1`);
      expect(output).toContain(`private key: ${String(ready['privateKey'])}`);
      expect(output).toContain(
        `new braintree.Environment('127.0.0.1', ${String(ready['port'])}, 'http://127.0.0.1', false, '127.0.0.1', ${String(ready['port'])})`,
      );
      const frame = await fetch(`${String(ready['origin'])}/hosted-fields/frame.html`);
      expect(frame.status).toBe(200);
    } finally {
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });

  it('stops with one line naming a corrupt data file', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'kassa-sandbox-main-'));
    const dataFile = join(folder, 'sandbox.json');
    writeFileSync(dataFile, 'garbage');
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./main.ts', import.meta.url))], {
        env: { ...process.env, SANDBOX_PORT: '0', SANDBOX_DATA_FILE: dataFile },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let errors = '';
      child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
      const code = await new Promise<number | null>((resolve) => child.on('exit', (exitCode) => resolve(exitCode)));
      expect(code).toBe(1);
      expect(errors).toContain(`sandbox: sandbox data file ${dataFile} is not a valid sandbox state file (not JSON`);
      expect(errors.startsWith('sandbox: ')).toBe(true);
      expect(errors.trim().split('\n')).toHaveLength(1);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
