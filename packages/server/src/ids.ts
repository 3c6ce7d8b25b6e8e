import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuv';
/** Milliseconds in base 32: 9 characters last until the year 3084. */
const TIME_CHARACTERS = 9;
/** 55 random bits after the time: ids made in the same millisecond do not meet. */
const RANDOM_CHARACTERS = 11;

export type IdPrefix = 'acc' | 'ses' | 'ord' | 'pay' | 'prd' | 'vel' | 'aud' | 'ref' | 'sgn' | 'mail';

/** The last id's time and random characters (as digits of 0-31): the next id of the same millisecond counts on. */
let lastTime = Number.NaN;
const lastRandom: number[] = [];

/**
 * An id that says what it names (`ord_…`), lowercase, safe in gateway URL paths: the time it was made, then random
 * characters, so ids made later sort after. A new row's key then goes at its index's right edge, whose pages stay in
 * the database's cache: with random ids each payment inserted into the middle of a dozen indexes (orders, their lines,
 * payments, the gateway's request keys), and with a million payments there most of those pages had to be read and
 * written again (issue 10, growth5). Ids are not secrets: a row is reached through the session or account owning it.
 * Within a millisecond the random part counts up from the last id's, so this process's ids sort as they were made
 * (an admin's two requests in one millisecond stay in order in the audit log); another instance's may interleave.
 */
export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  let time = '';
  for (let rest = now, i = 0; i < TIME_CHARACTERS; i += 1, rest = Math.floor(rest / 32)) time = ALPHABET[rest % 32] + time;
  if (now !== lastTime || !countOn()) {
    lastTime = now;
    // 256 is a multiple of 32: masking keeps every character equally likely.
    randomBytes(RANDOM_CHARACTERS).forEach((b, i) => {
      lastRandom[i] = b & 31;
    });
  }
  let random = '';
  for (const digit of lastRandom) random += ALPHABET[digit];
  return `${prefix}_${time}${random}`;
}

/** Adds one to the last random characters; false when they were all the last character (then new ones are drawn). */
function countOn(): boolean {
  for (let i = RANDOM_CHARACTERS - 1; i >= 0; i -= 1) {
    if ((lastRandom[i] ?? 31) < 31) {
      lastRandom[i] = (lastRandom[i] ?? 0) + 1;
      return true;
    }
    lastRandom[i] = 0;
  }
  return false;
}

const MINUTE_MS = 60_000;
/** The minute the last text began in (its first 17 characters, `2026-11-27T23:01:`), for texts of the same minute. */
let minuteStart = Number.NaN;
let minuteText = '';

/**
 * `now` as ISO 8601 (`Date.toISOString`'s text). A request writes several times of the same minute (issue 10, cpu8:
 * `toISOString` took 3.5 µs here against a fraction of it for the seconds and milliseconds put after the minute's text).
 */
export function nowIso(now: Date = new Date()): string {
  const ms = now.getTime();
  const inMinute = ms - minuteStart;
  if (inMinute >= 0 && inMinute < MINUTE_MS) {
    const seconds = Math.floor(inMinute / 1000);
    const millis = inMinute % 1000;
    return `${minuteText}${seconds < 10 ? '0' : ''}${seconds}.${millis < 100 ? (millis < 10 ? '00' : '0') : ''}${millis}Z`;
  }
  // An invalid date throws here, as toISOString does; years past 9999 or before 1970 are not kept.
  const text = now.toISOString();
  if (ms >= 0 && text.length === 24) {
    minuteStart = ms - (ms % MINUTE_MS);
    minuteText = text.slice(0, 17);
  }
  return text;
}
