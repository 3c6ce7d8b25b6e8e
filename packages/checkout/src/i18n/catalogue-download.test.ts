import { afterEach, describe, expect, it, vi } from 'vitest';
import { OPTION_LOAD_TIMEOUT_MS } from '../runtime/in-time.ts';
import { loadCatalogue } from './i18n.ts';

// The network holds the German catalogue's download: its import neither arrives nor fails.
vi.mock('./locales/de.ts', () => new Promise(() => {}));

afterEach(() => {
  vi.useRealTimers();
});

describe("a catalogue's download that stalls", () => {
  it("fails at the parts' time limit, as one that failed (the sheet then speaks English), not a checkout waiting for good", async () => {
    vi.useFakeTimers();
    let outcome: unknown = null;
    loadCatalogue('de').then(
      (catalogue) => {
        outcome = catalogue;
      },
      (error: unknown) => {
        outcome = error;
      },
    );
    await vi.advanceTimersByTimeAsync(OPTION_LOAD_TIMEOUT_MS - 1);
    expect(outcome).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(String(outcome)).toBe('Error: timed out');
  });
});
