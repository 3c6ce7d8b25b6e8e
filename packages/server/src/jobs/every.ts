/**
 * Runs `round` every `intervalMs`, never two at once (a slow round makes the next tick skip); the timer does not keep
 * the process alive. Returns the function that stops it. `round` handles its own errors.
 */
export function runEvery(intervalMs: number, round: () => Promise<void>): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void round().finally(() => {
      running = false;
    });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
