import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Random id of lowercase letters and digits (the shape of the provider's merchant ids, keys and transaction ids). */
export function randomId(length: number): string {
  const bytes = randomBytes(length);
  let id = '';
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length];
  return id;
}

/** Ids in the provider's URL paths must match this; anything else is answered as "not found". */
export const PATH_ID = /^[A-Za-z0-9_-]+$/;
