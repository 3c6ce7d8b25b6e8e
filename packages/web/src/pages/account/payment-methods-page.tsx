import { useState } from 'react';
import { PaymentMethodMark } from '@kassa/checkout/marks';
import { api } from '../../api/client.ts';
import type { SavedPaymentMethod } from '../../api/types.ts';
import { problemOf, useReloadable } from '../../api/use-load.ts';
import { messages, problemMessage } from '../../i18n/messages.ts';
import { AccountLayout } from './account-layout.tsx';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { NewCardForm } from './new-card-form.tsx';
import { LoadFailed } from '../../layout/load-failed.tsx';

const cardLabel = (method: SavedPaymentMethod) => messages.savedMethodLabel(method);

/** The shopper's saved cards: the default first; make another the default, delete one (asked first), add one. */
export function PaymentMethodsPage() {
  return (
    <AccountLayout title={messages.paymentMethodsTitle}>
      <p className="muted account-intro">{messages.paymentMethodsIntro}</p>
      <SavedCards />
    </AccountLayout>
  );
}

function SavedCards() {
  const { state, reload } = useReloadable(() => api.paymentMethods());
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<SavedPaymentMethod | null>(null);
  const [adding, setAdding] = useState(false);

  if (state.status === 'loading') return <p>{messages.loading}</p>;
  if (state.status === 'failed') return <LoadFailed problem={state.problem} retry={state.retry} />;
  const cards = state.data.paymentMethods;

  /** Runs a change, then shows the list as the server now has it; a refusal is said, and the list is fetched too. */
  async function change(run: () => Promise<string>): Promise<boolean> {
    setError(null);
    setStatus('');
    try {
      const done = await run();
      await reload();
      setStatus(done);
      return true;
    } catch (caught) {
      setError(problemMessage(problemOf(caught)));
      await reload().catch(() => undefined);
      return false;
    }
  }

  return (
    <>
      <p className="status" role="status">
        {status}
      </p>
      <p className="form-error" role="alert">
        {error}
      </p>
      {cards.length === 0 ? (
        <p className="account-empty card">{messages.paymentMethodsEmpty}</p>
      ) : (
        <ul className="account-list">
          {cards.map((card) => (
            <SavedCardRow
              key={card.id}
              card={card}
              onMakeDefault={() =>
                change(async () => {
                  await api.makeDefaultPaymentMethod(crypto.randomUUID(), card.id);
                  return messages.cardMadeDefault(cardLabel(card));
                })
              }
              onDelete={() => setDeleting(card)}
            />
          ))}
        </ul>
      )}
      {adding ? (
        <AddCard
          firstCard={cards.length === 0}
          onSaved={(saved) => {
            setAdding(false);
            void change(async () => messages.cardSaved(cardLabel(saved)));
          }}
          onCancel={() => setAdding(false)}
        />
      ) : (
        <button type="button" className="secondary add-card-button" onClick={() => setAdding(true)}>
          {messages.addCard}
        </button>
      )}
      {deleting !== null && (
        <DeleteCardDialog
          card={deleting}
          onDelete={() =>
            change(async () => {
              await api.deletePaymentMethod(crypto.randomUUID(), deleting.id);
              return messages.cardDeleted(cardLabel(deleting));
            })
          }
          onClose={() => setDeleting(null)}
        />
      )}
    </>
  );
}

function SavedCardRow({
  card,
  onMakeDefault,
  onDelete,
}: {
  card: SavedPaymentMethod;
  onMakeDefault: () => void;
  onDelete: () => void;
}) {
  const label = cardLabel(card);
  const lockedId = `locked-${card.id}`;
  return (
    <li className="account-row card">
      {/* Its way to pay's mark, the one the checkout's saved list shows. */}
      <span className="account-row-mark">
        <PaymentMethodMark type={card.type} />
      </span>
      <div className="account-row-main">
        <h2 className="account-row-title">
          {label}
          {card.default && <span className="badge">{messages.defaultBadge}</span>}
        </h2>
        {card.expirationYear !== '' && <p className="muted">{messages.cardExpires(card.expirationMonth, card.expirationYear)}</p>}
        {card.hasSubscription && (
          <p id={lockedId} className="fine-print">
            {messages.cardLocked}
          </p>
        )}
      </div>
      <div className="account-row-actions">
        {!card.default && (
          <button type="button" className="secondary" aria-label={messages.makeDefaultOf(label)} onClick={onMakeDefault}>
            {messages.makeDefault}
          </button>
        )}
        <button
          type="button"
          className="secondary"
          aria-label={messages.deleteCardOf(label)}
          aria-describedby={card.hasSubscription ? lockedId : undefined}
          disabled={card.hasSubscription}
          onClick={onDelete}
        >
          {messages.deleteCard}
        </button>
      </div>
    </li>
  );
}

function DeleteCardDialog({
  card,
  onDelete,
  onClose,
}: {
  card: SavedPaymentMethod;
  onDelete: () => Promise<boolean>;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <ConfirmDialog
      title={messages.deleteCardQuestion(cardLabel(card))}
      description={messages.deleteCardExplained}
      confirmLabel={messages.deleteCard}
      cancelLabel={messages.cancel}
      busy={busy}
      error={null}
      onCancel={onClose}
      onConfirm={async () => {
        setBusy(true);
        await onDelete();
        onClose();
      }}
    />
  );
}

/**
 * "Add a card": the checkout's card form, saved by the server (verified by the gateway, a card already saved refused),
 * or PayPal saved through its vault flow when the gateway offers PayPal.
 */
function AddCard({
  firstCard,
  onSaved,
  onCancel,
}: {
  firstCard: boolean;
  onSaved: (card: SavedPaymentMethod) => void;
  onCancel: () => void;
}) {
  const [makeDefault, setMakeDefault] = useState(firstCard);
  return (
    <NewCardForm
      title={messages.addCardTitle}
      submitLabel={messages.saveCard}
      busyLabel={messages.saving}
      submit={async (nonce, idempotencyKey) =>
        onSaved((await api.addPaymentMethod(idempotencyKey, nonce, makeDefault)).paymentMethod)
      }
      onCancel={onCancel}
      offerPayPal
    >
      <label className="checkbox-row">
        <input type="checkbox" checked={makeDefault} onChange={(event) => setMakeDefault(event.target.checked)} />
        {messages.makeDefaultOnSave}
      </label>
    </NewCardForm>
  );
}
