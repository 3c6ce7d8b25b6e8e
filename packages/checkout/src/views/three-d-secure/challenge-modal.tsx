// The 3-D Secure challenge: the issuer's page (served by the gateway's origin) in a modal dialog. The dialog is modal
// (the page behind is inert, so focus stays inside), Escape cancels, and focus goes back where it was when it closes.
// Loaded on demand: only a checkout whose card meets a challenge downloads it.
// Its props come from the sheet rather than the checkout's context: the chunk then imports nothing of the entry's.
import { useEffect, useId, useRef, type ReactElement } from 'react';

export interface ChallengeModalProps {
  readonly url: string;
  /** The dialog's heading, also the frame's title. */
  readonly title: string;
  readonly onCancel: () => void;
}

export function ChallengeModal({ url, title, onCancel }: ChallengeModalProps): ReactElement {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (element === null) return;
    const doc = element.ownerDocument;
    const previous = doc.activeElement instanceof HTMLElement ? doc.activeElement : null;
    element.showModal();
    element.querySelector('iframe')?.focus();
    return () => {
      const focusWasInside = doc.activeElement === doc.body || element.contains(doc.activeElement);
      element.close();
      // Unless the checkout moved focus on purpose already (to its message after a failure).
      if (focusWasInside || doc.activeElement === doc.body) previous?.focus();
    };
  }, []);

  return (
    <dialog
      ref={dialog}
      className="kassa-challenge"
      aria-labelledby={titleId}
      data-kassa-challenge=""
      onCancel={(event) => {
        // Escape while focus is on the dialog itself (the page inside handles its own Escape).
        event.preventDefault();
        onCancel();
      }}
    >
      <p id={titleId} className="kassa-challenge__title">
        {title}
      </p>
      <iframe className="kassa-challenge__frame" src={url} title={title} name="kassa-three-d-secure" />
    </dialog>
  );
}

export default ChallengeModal;
