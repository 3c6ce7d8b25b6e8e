import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A question the shopper must answer before something is undone (a card deleted, a subscription canceled): a modal
 * `<dialog>` (the browser keeps focus inside and the page behind inert), the safe answer focused first, Escape is the
 * safe answer, and focus goes back where it was, or to the page when that element is gone (the deleted card's row).
 */
export function ConfirmDialog({
  title,
  description,
  confirmLabel,
  cancelLabel,
  busy,
  error,
  onConfirm,
  onCancel,
}: {
  title: string;
  description: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  busy: boolean;
  error: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const safeAnswer = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const element = dialog.current;
    element?.showModal();
    safeAnswer.current?.focus();
    return () => {
      element?.close();
      if (opener?.isConnected) opener.focus();
      else document.getElementById('main')?.focus();
    };
  }, []);

  return (
    <dialog
      ref={dialog}
      className="confirm-dialog"
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      onCancel={(event) => {
        // Escape: the page decides (it closes the dialog by unmounting it), never while the answer is being carried out.
        event.preventDefault();
        if (!busy) onCancel();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      <p id={descriptionId} className="muted">
        {description}
      </p>
      <p role="alert" className="form-error">
        {error}
      </p>
      <div className="dialog-actions">
        <button ref={safeAnswer} type="button" className="secondary" onClick={onCancel} disabled={busy}>
          {cancelLabel}
        </button>
        <button type="button" className="primary danger" onClick={() => !busy && onConfirm()} aria-disabled={busy}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
