// A download's time limit. An import whose download stalls (the request never answered, never failed: a proxy or a
// network that holds it) settles never, and a spinner would wait for it for good: within the limit it ends as one that
// failed instead.

/**
 * `promise`'s outcome, or a rejection once `ms` have passed without one. The timer is left to run: once `promise` has
 * settled, its rejection does nothing.
 */
export function inTime<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    setTimeout(reject, ms, new Error('timed out'));
    promise.then(resolve, reject);
  });
}
