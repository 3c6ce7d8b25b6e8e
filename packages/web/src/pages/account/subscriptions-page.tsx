import { useState, type FormEvent } from 'react';
import { api } from '../../api/client.ts';
import type { Plan, SavedPaymentMethod, Subscription } from '../../api/types.ts';
import { problemOf, useReloadable } from '../../api/use-load.ts';
import { formatMoney } from '../../format/money.ts';
import { messages, problemMessage } from '../../i18n/messages.ts';
import { AccountLayout } from './account-layout.tsx';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { NewCardForm } from './new-card-form.tsx';
import { LoadFailed } from '../../layout/load-failed.tsx';

const billingDate = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' });

/** Statuses in which the gateway still charges a subscription: it can be canceled. */
const LIVE_STATUSES: ReadonlySet<Subscription['status']> = new Set(['Active', 'Pending', 'Past Due']);

async function loadSubscriptions() {
  const [{ subscriptions }, { plans }, { paymentMethods }] = await Promise.all([
    api.subscriptions(),
    api.catalogue(),
    api.paymentMethods(),
  ]);
  // Subscriptions are offered on saved cards (a subscription names the card it charges), not on saved wallets.
  return { subscriptions, plans, cards: paymentMethods.filter((method) => method.type === 'CreditCard') };
}

/** The shopper's subscriptions (cancel one, asked first) and the plans they can subscribe to with a saved card. */
export function SubscriptionsPage() {
  return (
    <AccountLayout title={messages.subscriptionsTitle}>
      <Subscriptions />
    </AccountLayout>
  );
}

function Subscriptions() {
  const { state, reload } = useReloadable(loadSubscriptions);
  const [status, setStatus] = useState('');
  const [canceling, setCanceling] = useState<Subscription | null>(null);

  if (state.status === 'loading') return <p>{messages.loading}</p>;
  if (state.status === 'failed') return <LoadFailed problem={state.problem} retry={state.retry} />;
  const { subscriptions, plans, cards } = state.data;
  // A plan the shopper already receives is not offered again.
  const offered = plans.filter((plan) => !subscriptions.some((s) => s.planId === plan.id && LIVE_STATUSES.has(s.status)));

  async function done(message: string): Promise<void> {
    await reload().catch(() => undefined);
    setStatus(message);
  }

  return (
    <>
      <p className="status" role="status">
        {status}
      </p>
      {subscriptions.length === 0 ? (
        <p className="account-empty card">{messages.subscriptionsEmpty}</p>
      ) : (
        <ul className="account-list">
          {subscriptions.map((subscription) => (
            <SubscriptionRow
              key={subscription.id}
              subscription={subscription}
              plans={plans}
              onCancel={() => setCanceling(subscription)}
            />
          ))}
        </ul>
      )}
      {offered.length > 0 && (
        <section aria-labelledby="plans-title" className="plans">
          <h2 id="plans-title">{messages.plansTitle}</h2>
          <ul className="plan-list">
            {offered.map((plan) => (
              <PlanOffer
                key={plan.id}
                plan={plan}
                cards={cards}
                onSubscribed={(created) => done(messages.subscribed(created.planName))}
              />
            ))}
          </ul>
        </section>
      )}
      {canceling !== null && (
        <CancelDialog
          subscription={canceling}
          onCanceled={(canceled) => done(messages.subscriptionCanceled(canceled.planName))}
          onClose={() => setCanceling(null)}
        />
      )}
    </>
  );
}

function periodPrice(price: Subscription['price'], plan: Plan | undefined): string {
  return messages.pricePerPeriod(formatMoney(price), plan?.billingFrequencyMonths ?? 1);
}

function SubscriptionRow({ subscription, plans, onCancel }: { subscription: Subscription; plans: Plan[]; onCancel: () => void }) {
  const plan = plans.find((p) => p.id === subscription.planId);
  const live = LIVE_STATUSES.has(subscription.status);
  const card = messages.cardLabel(subscription.paymentMethod.brand, subscription.paymentMethod.lastFour);
  return (
    <li className="account-row card">
      <div className="account-row-main">
        <h2 className="account-row-title">
          {subscription.planName}
          <span
            className="badge"
            data-tone={
              subscription.status === 'Active' ? 'success' : subscription.status === 'Past Due' ? 'attention' : 'neutral'
            }
          >
            {messages.subscriptionStatus[subscription.status] ?? subscription.status}
          </span>
        </h2>
        <p className="muted">{periodPrice(subscription.price, plan)}</p>
        {subscription.nextBillingDate !== null && live && (
          <p>{messages.nextBilling(billingDate.format(new Date(`${subscription.nextBillingDate}T00:00:00Z`)))}</p>
        )}
        <p className="muted">{messages.paidWithCard(card)}</p>
      </div>
      {live && (
        <div className="account-row-actions">
          <button
            type="button"
            className="secondary"
            aria-label={messages.cancelSubscriptionOf(subscription.planName)}
            onClick={onCancel}
          >
            {messages.cancelSubscription}
          </button>
        </div>
      )}
    </li>
  );
}

function CancelDialog({
  subscription,
  onCanceled,
  onClose,
}: {
  subscription: Subscription;
  onCanceled: (canceled: Subscription) => Promise<void>;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [key] = useState(() => crypto.randomUUID());
  return (
    <ConfirmDialog
      title={messages.cancelSubscriptionQuestion(subscription.planName)}
      description={messages.cancelSubscriptionExplained}
      confirmLabel={messages.cancelSubscription}
      cancelLabel={messages.keepSubscription}
      busy={busy}
      error={error}
      onCancel={onClose}
      onConfirm={async () => {
        setBusy(true);
        setError(null);
        try {
          const { subscription: canceled } = await api.cancelSubscription(key, subscription.id);
          await onCanceled(canceled);
          onClose();
        } catch (caught) {
          setError(problemMessage(problemOf(caught)));
          setBusy(false);
        }
      }}
    />
  );
}

/** The select's value for paying with a card typed now (saved on the way). */
const NEW_CARD = 'new-card';

/**
 * A plan and the card to pay it with: a saved one (the default chosen), or a new one typed into the checkout's card
 * form and saved on the way. One Idempotency-Key per attempt until the subscription is made, so pressing Subscribe
 * again after a lost answer never subscribes twice.
 */
function PlanOffer({
  plan,
  cards,
  onSubscribed,
}: {
  plan: Plan;
  cards: SavedPaymentMethod[];
  onSubscribed: (created: Subscription) => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [choice, setChoice] = useState(cards.find((card) => card.default)?.id ?? cards[0]?.id ?? NEW_CARD);
  const selectId = `plan-card-${plan.id}`;

  async function subscribe(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const { subscription } = await api.subscribe(key, { planId: plan.id, paymentMethodId: choice });
      setKey(crypto.randomUUID());
      await onSubscribed(subscription);
    } catch (caught) {
      setError(problemMessage(problemOf(caught)));
    }
    setBusy(false);
  }

  return (
    <li className="plan card">
      <h3>{plan.name}</h3>
      <p className="muted">{plan.description}</p>
      <p className="price">{messages.pricePerPeriod(formatMoney(plan.price), plan.billingFrequencyMonths)}</p>
      <form onSubmit={subscribe} className="plan-form">
        <p className="form-row">
          <label htmlFor={selectId}>{messages.subscribeWith}</label>
          <select id={selectId} value={choice} onChange={(event) => setChoice(event.target.value)}>
            {cards.map((card) => (
              <option key={card.id} value={card.id}>
                {messages.cardLabel(card.brand, card.lastFour)}
              </option>
            ))}
            <option value={NEW_CARD}>{messages.newCard}</option>
          </select>
        </p>
        <p className="form-error" role="alert">
          {error}
        </p>
        {choice !== NEW_CARD && (
          <button type="submit" className="primary" aria-disabled={busy} aria-busy={busy}>
            {busy ? messages.subscribing : messages.subscribe}
          </button>
        )}
      </form>
      {choice === NEW_CARD && (
        <NewCardForm
          title={messages.newCardTitle}
          submitLabel={messages.subscribe}
          busyLabel={messages.subscribing}
          submit={async (nonce, idempotencyKey) =>
            onSubscribed((await api.subscribe(idempotencyKey, { planId: plan.id, nonce })).subscription)
          }
          onCancel={cards[0] === undefined ? undefined : () => setChoice(cards[0]?.id ?? NEW_CARD)}
        />
      )}
    </li>
  );
}
