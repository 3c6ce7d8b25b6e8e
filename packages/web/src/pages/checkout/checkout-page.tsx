import { useEffect, useMemo, useRef, useState } from 'react';
import { Checkout, type CheckoutInstance, type ProviderClient } from '@kassa/checkout';
import { askConfigurationAhead, createSandboxProvider, providerAsked } from '@kassa/checkout/sandbox';
import { useSession } from '../../account/session.ts';
import { useLoad } from '../../api/use-load.ts';
import type { Order } from '../../api/types.ts';
import { formatMoney, toDecimalString } from '../../format/money.ts';
import { messages } from '../../i18n/messages.ts';
import { OrderLines } from '../../orders/order-lines.tsx';
import { deleteCheckoutCard } from '../../saved-cards/saved-cards.ts';
import { withServerVault } from '../../saved-cards/server-vault.ts';
import { Link, navigate, signInPath } from '../../router.tsx';
import { useCheckoutThemeKey } from '../../theme/checkout-theme.ts';
import { useUnansweredAttempt } from './unanswered-attempt.ts';
import { isProviderToken, useProviderFor } from './real-provider.ts';
import { usePayment } from './use-payment.ts';
import { startedCheckoutOutcome, takeCheckoutLoad, type CheckoutData } from './checkout-data.ts';
import { isWalletView } from './wallet-views.ts';
import { LoadFailed } from '../../layout/load-failed.tsx';

export function CheckoutPage({ orderId }: { orderId: string }) {
  const account = useSession();
  const started = startedCheckoutOutcome(orderId);
  // Shown "Loading…" first (the cart's way), the page has the client token before the checkout renders: its
  // configuration is asked for then (`askConfigurationAhead`). Shown at once, the checkout asks for it itself.
  const loaded = useLoad(
    () => takeCheckoutLoad(orderId).then((data) => (started === undefined ? withConfigurationAsked(data) : data)),
    orderId,
    started,
  );
  const [instance, setInstance] = useState<CheckoutInstance | null>(null);
  // On a wallet's view its own button pays (the order is paid once the shopper approves): the shop's Pay is hidden.
  const [onWalletView, setOnWalletView] = useState(false);
  const session = loaded.status === 'ready' ? loaded.data.session : undefined;
  const payment = usePayment(orderId, session?.botcheck);
  // Kassa's sandbox, or the real provider's braintree-web client when the server is configured for it.
  const provider = useProviderFor(session?.clientToken, {
    displayName: messages.shopName,
    currencyCode: session?.amount.currency ?? '',
  });
  // The sandbox's provider that asked for the configuration ahead, if one did (else the checkout's own default).
  // Signed in, the saved methods are the server's: it lists them, and a card typed with "Save card" is saved through
  // it by the payment flow (its bot-check and card-save rules), which words any refusal.
  const checkoutProvider = useMemo(() => {
    if (provider === null || session === undefined) return provider;
    const chosen = provider ?? providerAsked(session.clientToken);
    if (!session.checkout.vaultCard) return chosen;
    const base = chosen ?? sandboxProvider(session.clientToken);
    return base === undefined ? undefined : withServerVault(base);
  }, [provider, session]);
  const pay = (checkout: CheckoutInstance): Promise<void> => payment.pay(checkout);
  // The proof of work is solved while the shopper types the card, from the first character typed (not on focus: the
  // card view focuses its first field itself as it opens, and the solving would slow the page down then), so Pay does
  // not wait for it (issue 10); Pay takes that token, once.
  const { solveBotcheckAhead } = payment;
  useEffect(() => {
    if (instance === null) return undefined;
    instance.on('card:notEmpty', solveBotcheckAhead);
    return () => instance.off('card:notEmpty', solveBotcheckAhead);
  }, [instance, solveBotcheckAhead]);
  // A new theme restyles the card frames where they are (the card typed and the view kept); braintree-web's are made again.
  const checkoutKey = useCheckoutThemeKey(instance);

  const toReceipt = (): void => navigate(`/orders/${orderId}/receipt`, { replace: true });
  // biome-ignore lint/correctness/useExhaustiveDependencies: toReceipt is a fresh closure each render; the step and the order decide
  useEffect(() => {
    if (payment.state.step === 'paid') toReceipt();
  }, [payment.state.step, orderId]);
  // After a payment error, what became of the attempt (its answer may have been lost on the way).
  const unanswered = useUnansweredAttempt(loaded.status === 'ready' ? loaded.data.order : undefined, toReceipt);
  const failedWith = payment.state.step === 'idle' ? payment.state.error : undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: checked once per new failure, not whenever the attempt's state changes
  useEffect(() => {
    if (failedWith !== undefined) unanswered.check();
  }, [failedWith]);

  // A decline or a failed bot-check is read first: focus goes to the message (each failure is a new state object, so
  // the same message twice is announced twice). The checkout's own errors take focus inside the checkout.
  const feedback = useRef<HTMLDivElement>(null);
  // A refused save is not focused here: the checkout focuses its own message about it (the alert role reads this one).
  useEffect(() => {
    if (payment.state.step === 'idle' && payment.state.error !== undefined) feedback.current?.focus();
  }, [payment.state]);

  if (loaded.status === 'loading') return <p>{messages.loading}</p>;
  if (loaded.status === 'failed') return <LoadFailed problem={loaded.problem} retry={loaded.retry} />;
  const { order } = loaded.data;
  if (!session) {
    return (
      <p role="status">
        {messages.orderPaidAlready} <Link to={`/orders/${orderId}/receipt`}>{messages.viewReceipt}</Link>
      </p>
    );
  }

  const busy = payment.state.step !== 'idle';
  const error = payment.state.step === 'idle' ? payment.state.error : undefined;
  return (
    <div className="checkout-page">
      <OrderSummary order={order} />
      <section aria-labelledby="payment-title" className="payment-panel">
        {account.status === 'ready' && account.account === null && (
          <p className="checkout-sign-in">
            {messages.haveAccountAtCheckout} <Link to={signInPath(`/checkout/${orderId}`)}>{messages.signInAtCheckout}</Link>
          </p>
        )}
        <h2 id="payment-title">{messages.paymentTitle}</h2>
        {/* The real provider's client is imported first when the server is configured for it. */}
        {checkoutProvider !== null && (
          <Checkout
            key={checkoutKey}
            authorization={session.clientToken}
            provider={checkoutProvider}
            // The card stays in the form until the payment's outcome is known: after a network error or a failed
            // bot-check Pay again works as it is; after a decline the payment flow clears it.
            // 3-D Secure runs when the gateway turns it on for the merchant; the server may require its liability shift.
            // Signed in: the shopper's saved cards are listed (and can be deleted), and "Save card" is offered.
            options={{
              cardholderName: session.checkout.cardholderName,
              locale: 'en',
              clearFieldsAfterTokenization: false,
              threeDSecure: { amount: toDecimalString(session.amount) },
              // Each wallet shows when the gateway turns it on for the merchant too, approved for the order's amount;
              // signed in, its view offers to save it on the way (saved through the server, then paid as saved).
              ...walletOptions(toDecimalString(session.amount), session.checkout.vaultCard),
              vaultCard: session.checkout.vaultCard,
              vaultManager: session.checkout.vaultManager,
            }}
            // Deletions go through the server, which refuses a card that pays a subscription.
            onDeletePaymentMethod={session.checkout.vaultManager ? deleteCheckoutCard : undefined}
            onReady={setInstance}
            onInputSubmitRequest={() => instance && pay(instance)}
            // A wallet the shopper just approved in its own window pays at once, as at other shops: no second Pay. A
            // saved wallet chosen in the saved list (its view is the list's) waits for Pay like a saved card.
            onPaymentMethodRequestable={(event) => {
              if (instance && onWalletView && event.type !== 'CreditCard' && event.paymentMethodIsSelected) void pay(instance);
            }}
            onChangeActiveView={({ newViewId }) => setOnWalletView(isWalletView(newViewId))}
          />
        )}
        <div ref={feedback} className="payment-feedback" role="alert" tabIndex={-1}>
          {error}
        </div>
        {unanswered.notice !== null && (
          <p className="attempt-status" role="status">
            {unanswered.notice}
          </p>
        )}
        <p className="status" role="status">
          {payment.state.step === 'botcheck' ? messages.checkingYouAreHuman : ''}
        </p>
        <button
          type="button"
          hidden={onWalletView}
          className="primary pay-button"
          // While paying the button stays focusable (aria-disabled, not disabled): a disabled button drops focus to
          // the page, and focus must come back to Pay when a 3-D Secure challenge is cancelled.
          disabled={!instance}
          aria-disabled={busy}
          aria-busy={busy}
          onClick={() => instance && !busy && pay(instance)}
        >
          {busy ? messages.paying : messages.pay(formatMoney(session.amount))}
        </button>
        <p className="fine-print secure-note">
          <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
            <path
              d="M4.5 7V5a3.5 3.5 0 0 1 7 0v2h.5a1 1 0 0 1 1 1v6a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V8a1 1 0 0 1 1-1zm1.5 0h4V5a2 2 0 0 0-4 0z"
              fill="currentColor"
            />
          </svg>
          {messages.cardDataNote}
        </p>
      </section>
    </div>
  );
}

/** Kassa's sandbox gateway's configuration asked for ahead (the real provider's client asks its own). */
function withConfigurationAsked(data: CheckoutData): CheckoutData {
  if (data.session !== undefined && !isProviderToken(data.session.clientToken)) askConfigurationAhead(data.session.clientToken);
  return data;
}

/** The checkout's own default provider (Kassa's sandbox), to wrap; a token it cannot read is left to it to report. */
function sandboxProvider(clientToken: string): ProviderClient | undefined {
  try {
    return createSandboxProvider(clientToken);
  } catch {
    return undefined;
  }
}

/**
 * Every wallet, for the order's amount: the checkout offers those the gateway enables. `offerSave`: each wallet but
 * PayPal Credit (a financing offer for this order, not an account to keep) offers "Save {wallet} for my next payments".
 */
function walletOptions(amount: string, offerSave: boolean) {
  const wallet = { amount };
  const saved = offerSave ? { amount, offerSave: true } : wallet;
  return { paypal: saved, paypalCredit: wallet, venmo: saved, applePay: saved, googlePay: saved };
}

/** The order beside the payment form; on a phone it folds to its total so Pay stays in view. */
function OrderSummary({ order }: { order: Order }) {
  const [open, setOpen] = useState(false);
  const count = order.items.reduce((sum, item) => sum + item.quantity, 0);
  return (
    <section aria-labelledby="checkout-title" className="order-summary">
      <h1 id="checkout-title" className="checkout-heading">
        {messages.checkoutTitle}
      </h1>
      <p className="summary-pay-to">{messages.payTo(messages.shopName)}</p>
      <p className="summary-amount">{formatMoney(order.total)}</p>
      <button
        type="button"
        className="summary-toggle link-button"
        aria-expanded={open}
        aria-controls="summary-details"
        onClick={() => setOpen(!open)}
      >
        {`${open ? messages.hideOrderSummary : messages.showOrderSummary} (${messages.cartItems(count)})`}
      </button>
      <div id="summary-details" className="summary-details" data-open={open}>
        <h2 className="visually-hidden">{messages.orderSummary}</h2>
        <OrderLines order={order} />
      </div>
    </section>
  );
}
