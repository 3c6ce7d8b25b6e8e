import { randomFillSync } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Random bytes drawn from the system's generator 4 KB at a time (as Node's randomUUID does), each handed out once:
 * asking it for a few bytes per id cost more than the id (every sale makes three or four).
 */
const pool = Buffer.alloc(4096);
let used = pool.length;

function randomByte(): number {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const byte = pool.readUInt8(used);
  used += 1;
  return byte;
}

/** Random id of lowercase letters and digits (the shape of the provider's merchant ids, keys and transaction ids). */
export function randomId(length: number): string {
  let id = '';
  for (let index = 0; index < length; index += 1) id += ALPHABET[randomByte() % ALPHABET.length];
  return id;
}

/** Ids in the provider's URL paths must match this; anything else is answered as "not found". */
export const PATH_ID = /^[A-Za-z0-9_-]+$/;
