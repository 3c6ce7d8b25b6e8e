import { useEffect, useRef, useState } from 'react';
import type { Problem } from '../../../api/types.ts';
import { problemOf } from '../../../api/use-load.ts';
import { adminProblemMessage } from '../../../i18n/admin-messages.ts';

/**
 * Whether a refusal ends the dialog's Idempotency-Key. A refusal is the key's final answer (the server replays it for
 * that key): asking again, later or with other input, is a new request. A lost answer (no status, a 5xx), a request
 * still running, or the key's first request differing from this one (its answer may have been lost after it was
 * carried out: a new key could refund twice) keep the key.
 */
export function renewsKey(problem: Problem): boolean {
  return (
    problem.status >= 400 &&
    problem.status < 500 &&
    problem.code !== 'idempotency_key_in_use' &&
    problem.code !== 'idempotency_key_reused'
  );
}

/**
 * A dialog's one action at the server under an Idempotency-Key, so Confirm again after a lost answer is the same
 * request: while it runs `busy`, and its refusal (or the dialog's own check, through `fail`) as the sentence to show.
 */
export function useKeyedAction<T>(run: (idempotencyKey: string) => Promise<T>, onDone: (value: T) => void) {
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function confirm(): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      onDone(await run(key));
    } catch (caught) {
      const problem = problemOf(caught);
      if (renewsKey(problem)) setKey(crypto.randomUUID());
      setError(adminProblemMessage(problem));
      setBusy(false);
    }
  }
  return { busy, error, fail: setError, confirm: () => void confirm() };
}

/** A `<dialog>` shown modal while the component is mounted: the browser keeps focus inside, Escape cancels. */
export function useModal() {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    element?.showModal();
    return () => element?.close();
  }, []);
  return dialog;
}

/** A form dialog's foot: its error, Cancel, and the submit button that carries out the action. */
export function DialogActions({
  error,
  busy,
  confirmLabel,
  cancelLabel,
  danger = false,
  onCancel,
}: {
  error: string | null;
  busy: boolean;
  confirmLabel: string;
  cancelLabel: string;
  danger?: boolean;
  onCancel: () => void;
}) {
  return (
    <>
      <div role="alert" className="form-error">
        {error}
      </div>
      <div className="dialog-actions">
        <button type="button" className="secondary" onClick={onCancel} disabled={busy}>
          {cancelLabel}
        </button>
        <button type="submit" className={danger ? 'primary danger' : 'primary'} disabled={busy}>
          {confirmLabel}
        </button>
      </div>
    </>
  );
}
