import { useRef, useState } from 'react';
import { Checkout, type CheckoutInstance } from '@kassa/checkout';
import { api } from '../../api/client.ts';
import type { SavedPaymentMethod } from '../../api/types.ts';
import { problemOf, useLoad, useReloadable } from '../../api/use-load.ts';
import { messages, problemMessage } from '../../i18n/messages.ts';
import { useTheme } from '../../theme/theme.ts';
import { AccountLayout } from './account-layout.tsx';
import { ConfirmDialog } from './confirm-dialog.tsx';

const cardLabel = (card: SavedPaymentMethod) => messages.cardLabel(card.brand, card.lastFour);

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
  if (state.status === 'failed') return <p role="alert">{problemMessage(state.problem)}</p>;
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

function SavedCardRow({ card, onMakeDefault, onDelete }: { card: SavedPaymentMethod; onMakeDefault: () => void; onDelete: () => void }) {
  const label = cardLabel(card);
  const lockedId = `locked-${card.id}`;
  return (
    <li className="account-row card">
      <div className="account-row-main">
        <h2 className="account-row-title">
          {label}
          {card.default && <span className="badge">{messages.defaultBadge}</span>}
        </h2>
        <p className="muted">{messages.cardExpires(card.expirationMonth, card.expirationYear)}</p>
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

function DeleteCardDialog({ card, onDelete, onClose }: { card: SavedPaymentMethod; onDelete: () => Promise<boolean>; onClose: () => void }) {
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
 * The checkout's card form outside an order: a client token that is not the shopper's customer's, so the checkout opens
 * on the card form alone; the nonce it gives is saved by the server (verified by the gateway, a card already saved
 * refused). One Idempotency-Key per nonce: pressing Save again after a lost answer saves once.
 */
function AddCard({ firstCard, onSaved, onCancel }: { firstCard: boolean; onSaved: (card: SavedPaymentMethod) => void; onCancel: () => void }) {
  const session = useLoad(() => api.vaultSession(), 'vault-session');
  const theme = useTheme();
  const [instance, setInstance] = useState<CheckoutInstance | null>(null);
  const [makeDefault, setMakeDefault] = useState(firstCard);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const keys = useRef(new Map<string, string>());

  async function save(): Promise<void> {
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
      onSaved((await api.addPaymentMethod(key, nonce, makeDefault)).paymentMethod);
    } catch (caught) {
      const problem = problemOf(caught);
      // The gateway has answered (a duplicate, a failed verification, a refused nonce): that nonce is spent, the card is
      // entered again. A lost answer keeps it, so Save again resumes the same request.
      if (problem.status >= 400 && problem.status < 500) instance.clearSelectedPaymentMethod();
      setError(problemMessage(problem));
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="add-card-title" className="add-card card">
      <h2 id="add-card-title">{messages.addCardTitle}</h2>
      {session.status === 'loading' && <p>{messages.loading}</p>}
      {session.status === 'failed' && <p role="alert">{problemMessage(session.problem)}</p>}
      {session.status === 'ready' && (
        <Checkout
          key={theme}
          authorization={session.data.clientToken}
          options={{ cardholderName: session.data.checkout.cardholderName, locale: 'en', clearFieldsAfterTokenization: false }}
          onReady={setInstance}
          onInputSubmitRequest={() => void save()}
        />
      )}
      <label className="checkbox-row">
        <input type="checkbox" checked={makeDefault} onChange={(event) => setMakeDefault(event.target.checked)} />
        {messages.makeDefaultOnSave}
      </label>
      <p className="form-error" role="alert">
        {error}
      </p>
      <div className="dialog-actions">
        <button type="button" className="secondary" onClick={onCancel} disabled={busy}>
          {messages.cancel}
        </button>
        <button type="button" className="primary" onClick={() => void save()} aria-disabled={instance === null || busy} aria-busy={busy}>
          {busy ? messages.saving : messages.saveCard}
        </button>
      </div>
    </section>
  );
}
