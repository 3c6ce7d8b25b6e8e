// "Delete Visa card ending in 1881?": an in-sheet dialog (the drop-in's view, made accessible). Focus starts on
// Cancel (the safe answer), Tab stays between its two buttons, Escape cancels; focus then returns to the method.
import { useCallback, useId, useRef, type KeyboardEvent, type ReactElement } from 'react';
import { connectDeleteConfirmation } from '../../machine/methods.connect.ts';
import { useCheckoutContext, useFocusTarget } from '../checkout-context.ts';

export function DeleteConfirmation(): ReactElement | null {
  const { state, runtime, t, locale } = useCheckoutContext();
  const questionId = useId();
  const cancel = useRef<HTMLButtonElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  useFocusTarget(
    'delete-confirmation',
    useCallback(() => cancel.current?.focus(), []),
  );
  const view = connectDeleteConfirmation(state, t, locale);
  if (view === null) return null;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (event.key === 'Escape' && !view.busy) {
      event.preventDefault();
      runtime?.dispatch({ type: 'CANCEL_DELETE' });
    } else if (event.key === 'Tab') {
      // Two buttons: Tab and Shift+Tab go from one to the other.
      event.preventDefault();
      (document.activeElement === cancel.current ? confirm : cancel).current?.focus();
    }
  };

  return (
    <div
      className="kassa-delete"
      role="dialog"
      aria-modal="true"
      aria-labelledby={questionId}
      aria-busy={view.busy}
      onKeyDown={onKeyDown}
    >
      <p id={questionId} className="kassa-delete__question">
        {view.question}
      </p>
      <div className="kassa-delete__actions">
        <button
          ref={cancel}
          type="button"
          className="kassa-delete__cancel"
          disabled={view.busy}
          onClick={() => runtime?.dispatch({ type: 'CANCEL_DELETE' })}
        >
          {view.cancelText}
        </button>
        <button
          ref={confirm}
          type="button"
          className="kassa-delete__confirm"
          disabled={view.busy}
          onClick={() => runtime?.dispatch({ type: 'CONFIRM_DELETE' })}
        >
          {view.confirmText}
        </button>
      </div>
    </div>
  );
}

export default DeleteConfirmation;
