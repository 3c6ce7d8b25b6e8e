import { useState, type FormEvent } from 'react';
import { adminApi } from '../../../api/admin-client.ts';
import type { AdminPayment, RefundDone } from '../../../api/types.gen.ts';
import { formatMoney, toDecimalString, toMinorUnits } from '../../../format/money.ts';
import { adminMessages } from '../../../i18n/admin-messages.ts';
import { DialogActions, useKeyedAction, useModal } from '../parts/dialog.tsx';

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
  const dialog = useModal();
  const [partial, setPartial] = useState(false);
  const [amountText, setAmountText] = useState('');
  const currency = payment.amount.currency;
  const left = formatMoney({ amount: refundable, currency });

  const partialAmount = partial ? toMinorUnits(amountText, currency) : refundable;
  const validAmount = partialAmount !== null && partialAmount > 0 && partialAmount <= refundable;
  // A full refund sends no amount: the server refunds what is left, whatever it is by then.
  const { busy, error, fail, confirm } = useKeyedAction(
    (key) =>
      kind === 'void'
        ? adminApi.void(payment.id, key)
        : adminApi.refund(payment.id, key, partial ? (partialAmount ?? undefined) : undefined),
    onDone,
  );

  function submit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    if (kind === 'refund' && !validAmount) fail(adminMessages.refundAmountInvalid(left));
    else confirm();
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
      <form onSubmit={submit} noValidate>
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
        <DialogActions
          error={error}
          busy={busy}
          confirmLabel={busy ? adminMessages.working : confirmLabel}
          cancelLabel={adminMessages.cancel}
          danger={kind === 'void'}
          onCancel={onClose}
        />
      </form>
    </dialog>
  );
}
