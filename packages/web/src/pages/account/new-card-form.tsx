import { useId, useRef, useState, type ReactNode } from 'react';
import { Checkout, type CheckoutInstance } from '@kassa/checkout';
import { api } from '../../api/client.ts';
import { problemOf, useLoad } from '../../api/use-load.ts';
import { messages, problemMessage } from '../../i18n/messages.ts';
import { useCheckoutThemeKey } from '../../theme/checkout-theme.ts';
import { isWalletView } from '../checkout/wallet-views.ts';
import { LoadFailed } from '../../layout/load-failed.tsx';

/**
 * The checkout's card form (and, when asked, PayPal's vault flow) outside an order (adding a card, subscribing with a new one): a client token that is not
 * the shopper's customer's, so the checkout opens on the card form alone; the nonce it gives goes to `submit`, whose
 * server call saves the card (verified by the gateway, a card already saved refused). One Idempotency-Key per nonce:
 * pressing the button again after a lost answer sends the same request, which the server answers once.
 */
export function NewCardForm({
  title,
  submitLabel,
  busyLabel,
  submit,
  onCancel,
  offerPayPal = false,
  children,
}: {
  title: string;
  submitLabel: string;
  busyLabel: string;
  submit: (nonce: string, idempotencyKey: string) => Promise<void>;
  /** Closes the form; without it there is no Cancel (nothing else to choose). */
  onCancel?: (() => void) | undefined;
  /**
   * Offer PayPal beside the card, in PayPal's vault flow (when the gateway turns PayPal on): the shopper approves in
   * PayPal's window and the billing agreement's nonce goes to `submit` as a card's would, at once.
   */
  offerPayPal?: boolean;
  /** Choices shown under the card form (make it the default). */
  children?: ReactNode;
}) {
  const session = useLoad(() => api.vaultSession(), 'vault-session');
  const [instance, setInstance] = useState<CheckoutInstance | null>(null);
  // A new theme restyles the card frames where they are (the card typed kept); braintree-web's are made again.
  const checkoutKey = useCheckoutThemeKey(instance);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // On PayPal's view its own button saves: this form's button is hidden there, as the checkout page hides Pay.
  const [onWalletView, setOnWalletView] = useState(false);
  const keys = useRef(new Map<string, string>());
  const titleId = useId();

  async function send(): Promise<void> {
    if (instance === null || busy) return;
    setBusy(true);
    setError(null);
    let nonce: string;
    try {
      ({ nonce } = await instance.requestPaymentMethod());
    } catch {
      // The checkout shows what is wrong inside itself.
      setBusy(false);
      return;
    }
    const key = keys.current.get(nonce) ?? crypto.randomUUID();
    keys.current.set(nonce, key);
    try {
      await submit(nonce, key);
    } catch (caught) {
      const problem = problemOf(caught);
      // The gateway has answered (a duplicate, a failed verification, a decline): that nonce is spent, the card is
      // entered again. A lost answer keeps it, so the button resumes the same request.
      if (problem.status >= 400 && problem.status < 500) instance.clearSelectedPaymentMethod();
      setError(problemMessage(problem));
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby={titleId} className="add-card card">
      <h2 id={titleId}>{title}</h2>
      {session.status === 'loading' && <p>{messages.loading}</p>}
      {session.status === 'failed' && <LoadFailed problem={session.problem} retry={session.retry} />}
      {session.status === 'ready' && (
        <Checkout
          key={checkoutKey}
          authorization={session.data.clientToken}
          options={{
            cardholderName: session.data.checkout.cardholderName,
            locale: 'en',
            clearFieldsAfterTokenization: false,
            ...(offerPayPal ? { paypal: { flow: 'vault' } } : {}),
          }}
          onReady={setInstance}
          onInputSubmitRequest={() => void send()}
          // PayPal approved in its window is saved at once, as a shopper expects: no second button to press.
          onPaymentMethodRequestable={(event) => {
            if (event.type !== 'CreditCard' && event.paymentMethodIsSelected) void send();
          }}
          onChangeActiveView={({ newViewId }) => setOnWalletView(isWalletView(newViewId))}
        />
      )}
      {children}
      <p className="form-error" role="alert">
        {error}
      </p>
      <div className="dialog-actions">
        {onCancel !== undefined && (
          <button type="button" className="secondary" onClick={onCancel} disabled={busy}>
            {messages.cancel}
          </button>
        )}
        <button
          type="button"
          className="primary"
          hidden={onWalletView}
          onClick={() => void send()}
          aria-disabled={instance === null || busy}
          aria-busy={busy}
        >
          {busy ? busyLabel : submitLabel}
        </button>
      </div>
    </section>
  );
}
