// A download's time limit. An import whose download stalls (the request never answered, never failed: a proxy or a
// network that holds it) settles never, and a spinner would wait for it for good: within the limit it ends as one that
// failed instead.

/**
 * RuntimeOptions.optionLoadTimeoutMs's default, the card's frames' and each wallet's set-up's alike; and how long a part's
 * download may take (a stalled one then fails the checkout as one that did not download), whatever that option says.
 * Here, beside the limit's helper, so the modules that download parts (the language catalogues, the provider's) need
 * not import the runtime that imports them.
 */
export const OPTION_LOAD_TIMEOUT_MS = 20_000;

/**
 * `promise`'s outcome, or a rejection once `ms` (by default a part's download limit) have passed without one. The timer
 * ends with `promise`: left to run, each view or module that arrived kept one for the whole limit (and a server render's
 * process alive that long).
 */
export function inTime<T>(promise: Promise<T>, ms = OPTION_LOAD_TIMEOUT_MS): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(reject, ms, new Error('timed out'));
    promise.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}
