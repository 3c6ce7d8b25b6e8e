import { useState } from 'react';
import { problemOf } from '../../../api/use-load.ts';
import { adminProblemMessage } from '../../../i18n/admin-messages.ts';

/**
 * A dialog's one action at the server under one Idempotency-Key per opening, so Confirm again after a lost answer is
 * the same request: while it runs `busy`, and its refusal as the sentence to show.
 */
export function useKeyedAction<T>(run: (idempotencyKey: string) => Promise<T>, onDone: (value: T) => void) {
  const [key] = useState(() => crypto.randomUUID());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function confirm(): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      onDone(await run(key));
    } catch (caught) {
      setError(adminProblemMessage(problemOf(caught)));
      setBusy(false);
    }
  }
  return { busy, error, confirm: () => void confirm() };
}
