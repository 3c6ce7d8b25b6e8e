import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface SandboxCredentials {
  merchantId: string;
  publicKey: string;
  privateKey: string;
}

/**
 * The local sandbox's credentials, made once and kept (mode 0600) beside its state: it derives the key that signs
 * client tokens from the private key, so a restart must bring the same ones. (Card number identifiers are keyed by a
 * key never derived from anything on this disk.) Test-only credentials of a gateway
 * that runs on this machine and takes test cards only.
 */
export function rememberedSandboxCredentials(file: string): SandboxCredentials {
  if (existsSync(file)) {
    const saved: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (isCredentials(saved)) return saved;
    throw new Error(`${file} does not hold sandbox credentials; remove it to make new ones`);
  }
  const made = { merchantId: token(8), publicKey: token(8), privateKey: token(16) };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(made, null, 2)}\n`, { mode: 0o600 });
  return made;
}

const token = (bytes: number) => randomBytes(bytes).toString('hex');

function isCredentials(value: unknown): value is SandboxCredentials {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return ['merchantId', 'publicKey', 'privateKey'].every(
    (key) => typeof record[key] === 'string' && /^[a-z0-9]+$/.test(String(record[key])),
  );
}
