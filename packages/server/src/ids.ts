import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuv';

export type IdPrefix = 'acc' | 'ses' | 'ord' | 'pay' | 'prd' | 'vel' | 'aud' | 'ref' | 'sgn' | 'mail';

/** A random id that says what it names (`ord_…`); 100 bits, lowercase, safe in gateway URL paths. */
export function newId(prefix: IdPrefix): string {
  const bytes = randomBytes(20);
  let out = '';
  // 256 is a multiple of 32: masking keeps every character equally likely.
  for (const b of bytes) out += ALPHABET[b & 31];
  return `${prefix}_${out}`;
}

export function nowIso(now: Date = new Date()): string {
  return now.toISOString();
}
