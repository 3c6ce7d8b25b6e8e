import { useEffect, useRef, useState, type FormEvent } from 'react';
import { adminApi } from '../../../api/admin-client.ts';
import { ApiError } from '../../../api/client.ts';
import type { AdminPayment, RefundDone } from '../../../api/types.gen.ts';
import { formatMoney, toDecimalString, toMinorUnits } from '../../../format/money.ts';
import { adminMessages, adminProblemMessage } from '../../../i18n/admin-messages.ts';

export type GiveBack = 'refund' | 'void';

/**
 * The confirmation before money is given back: a modal <dialog> (the browser traps focus, Escape cancels, focus
 * returns to the button that opened it). One Idempotency-Key per opening, so pressing Confirm again after a network
 * error or a gateway time-out retries the same refund instead of making a second one (after a refusal, a new key).
 */
export function GiveBackDialog({
  kind,
  payment,
  refundable,
  onClose,
  onDone,
}: {
  kind: GiveBack;
  payment: AdminPayment;
  /** Minor units left to refund. */
  refundable: number;
  onClose: () => void;
  onDone: (done: RefundDone) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [partial, setPartial] = useState(false);
  const [amountText, setAmountText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const currency = payment.amount.currency;
  const left = formatMoney({ amount: refundable, currency });

  useEffect(() => {
    const element = dialog.current;
    element?.showModal();
    return () => element?.close();
  }, []);

  const partialAmount = partial ? toMinorUnits(amountText, currency) : refundable;
  const validAmount = partialAmount !== null && partialAmount > 0 && partialAmount <= refundable;

  async function confirm(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    if (kind === 'refund' && !validAmount) {
      setError(adminMessages.refundAmountInvalid(left));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      // A full refund sends no amount: the server refunds what is left, whatever it is by then.
      const done =
        kind === 'void'
          ? await adminApi.void(payment.id, key)
          : await adminApi.refund(payment.id, key, partial ? (partialAmount ?? undefined) : undefined);
      onDone(done);
    } catch (caught) {
      const problem = caught instanceof ApiError ? caught.problem : { status: 0, code: 'unexpected_error' };
      // A refusal (not settled yet, more than is left, ...) is the key's final answer: the server replays it for that
      // key, so asking again (later, or another amount) is a new request. An unknown outcome (a network error, the
      // gateway did not answer) or a request still running keeps the key, so its retry cannot give back twice.
      if (problem.status >= 400 && problem.status < 500 && problem.code !== 'idempotency_key_in_use') setKey(crypto.randomUUID());
      setError(adminProblemMessage(problem));
      setBusy(false);
    }
  }

  const title = kind === 'refund' ? adminMessages.refundTitle : adminMessages.voidTitle;
  const confirmLabel =
    kind === 'void'
      ? adminMessages.confirmVoid
      : adminMessages.confirmRefund(validAmount ? formatMoney({ amount: partialAmount, currency }) : left);
  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby="give-back-title"
      aria-describedby="give-back-intro"
      onCancel={onClose}
    >
      <form onSubmit={confirm} noValidate>
        <h2 id="give-back-title">{title}</h2>
        <p id="give-back-intro">
          {kind === 'refund' ? adminMessages.refundIntro(left) : adminMessages.voidIntro(formatMoney(payment.amount))}
        </p>
        {kind === 'refund' && (
          <fieldset className="choice-group">
            <legend className="visually-hidden">{adminMessages.refundAmount}</legend>
            <label className="choice">
              <input type="radio" name="scope" checked={!partial} onChange={() => setPartial(false)} />
              <span>
                {adminMessages.refundFull} <span className="muted">({left})</span>
              </span>
            </label>
            <label className="choice">
              <input type="radio" name="scope" checked={partial} onChange={() => setPartial(true)} />
              <span>{adminMessages.refundPartial}</span>
            </label>
            {partial && (
              <p className="form-row">
                <label htmlFor="refund-amount">{`${adminMessages.refundAmount} (${currency})`}</label>
                <input
                  id="refund-amount"
                  inputMode="decimal"
                  autoComplete="off"
                  placeholder={toDecimalString({ amount: Math.min(500, refundable), currency })}
                  aria-describedby="refund-amount-hint"
                  value={amountText}
                  onChange={(event) => setAmountText(event.target.value)}
                  // The field appears when Partial is chosen: typing is what comes next.
                  autoFocus
                />
                <span id="refund-amount-hint" className="fine-print">
                  {adminMessages.refundAmountHint(currency)}
                </span>
              </p>
            )}
          </fieldset>
        )}
        <div role="alert" className="form-error">
          {error}
        </div>
        <div className="dialog-actions">
          <button type="button" className="secondary" onClick={onClose} disabled={busy}>
            {adminMessages.cancel}
          </button>
          <button type="submit" className={kind === 'void' ? 'primary danger' : 'primary'} disabled={busy}>
            {busy ? adminMessages.working : confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
