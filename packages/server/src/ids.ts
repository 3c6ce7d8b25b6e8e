import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuv';
/** Milliseconds in base 32: 9 characters last until the year 3084. */
const TIME_CHARACTERS = 9;
/** 55 random bits after the time: ids made in the same millisecond do not meet. */
const RANDOM_CHARACTERS = 11;

export type IdPrefix = 'acc' | 'ses' | 'ord' | 'pay' | 'prd' | 'vel' | 'aud' | 'ref' | 'sgn' | 'mail';

/**
 * An id that says what it names (`ord_…`), lowercase, safe in gateway URL paths: the time it was made, then random
 * characters, so ids made later sort after. A new row's key then goes at its index's right edge, whose pages stay in
 * the database's cache: with random ids each payment inserted into the middle of a dozen indexes (orders, their lines,
 * payments, the gateway's request keys), and with a million payments there most of those pages had to be read and
 * written again (issue 10, growth5). Ids are not secrets: a row is reached through the session or account owning it.
 */
export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  let time = '';
  for (let rest = now, i = 0; i < TIME_CHARACTERS; i += 1, rest = Math.floor(rest / 32)) time = ALPHABET[rest % 32] + time;
  let random = '';
  // 256 is a multiple of 32: masking keeps every character equally likely.
  for (const b of randomBytes(RANDOM_CHARACTERS)) random += ALPHABET[b & 31];
  return `${prefix}_${time}${random}`;
}

export function nowIso(now: Date = new Date()): string {
  return now.toISOString();
}
