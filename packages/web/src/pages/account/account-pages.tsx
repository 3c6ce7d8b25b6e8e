import { useState, type FormEvent, type ReactNode } from 'react';
import { api, ApiError } from '../../api/client.ts';
import type { Account, GuestOrder } from '../../api/types.ts';
import { useLoad } from '../../api/use-load.ts';
import { formatMoney } from '../../format/money.ts';
import { setSignedIn } from '../../account/session.ts';
import { messages, problemMessage } from '../../i18n/messages.ts';
import { Link, navigate, returnPath } from '../../router.tsx';

type Field = 'name' | 'email' | 'password';
type Values = Record<Field, string> & { keepGuestOrders: boolean };
/** How a form ends: signed in, or (sign-up) a mail sent, whatever the address: the page then says to read it. */
type Outcome = { signedIn: Account } | { mailedTo: string };

function AccountForm({
  title,
  fields,
  guestOrdersConsent,
  submitLabel,
  submit,
  footer,
}: {
  title: string;
  fields: Field[];
  /** Offer to keep this browser's guest orders (where the form signs the shopper in). */
  guestOrdersConsent: boolean;
  submitLabel: string;
  submit: (values: Values) => Promise<Outcome>;
  footer: ReactNode;
}) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [mailedTo, setMailedTo] = useState<string | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const values = {
      name: String(data.get('name') ?? ''),
      email: String(data.get('email') ?? ''),
      password: String(data.get('password') ?? ''),
      keepGuestOrders: data.get('keepGuestOrders') === 'yes',
    };
    setBusy(true);
    setError(null);
    try {
      const outcome = await submit(values);
      if ('mailedTo' in outcome) {
        setMailedTo(outcome.mailedTo);
        return;
      }
      const account = outcome.signedIn;
      setSignedIn(account);
      // Back where the shopper came from (an order's checkout), else the shop or, for an admin, the admin page.
      const back = returnPath(window.location.search);
      navigate(back !== '/' ? back : account.role === 'admin' ? '/admin' : '/');
    } catch (caught) {
      setError(problemMessage(caught instanceof ApiError ? caught.problem : { status: 0, code: 'unexpected_error' }));
      setBusy(false);
    }
  }

  if (mailedTo !== null) {
    return (
      <section aria-labelledby="account-title" className="account-form card" role="status">
        <h1 id="account-title">{messages.checkEmailTitle}</h1>
        <p>{messages.checkEmailText(mailedTo)}</p>
        <p className="account-switch">{footer}</p>
      </section>
    );
  }

  const inputs: Record<Field, { label: string; type: string; autoComplete: string }> = {
    name: { label: messages.name, type: 'text', autoComplete: 'name' },
    email: { label: messages.email, type: 'email', autoComplete: 'email' },
    password: {
      label: messages.password,
      type: 'password',
      autoComplete: fields.includes('name') ? 'new-password' : 'current-password',
    },
  };

  return (
    <section aria-labelledby="account-title" className="account-form card">
      <h1 id="account-title">{title}</h1>
      <form onSubmit={onSubmit}>
        {fields.map((field) => (
          <p key={field} className="form-row">
            <label htmlFor={`account-${field}`}>{inputs[field].label}</label>
            <input
              id={`account-${field}`}
              name={field}
              required
              type={inputs[field].type}
              autoComplete={inputs[field].autoComplete}
            />
          </p>
        ))}
        {guestOrdersConsent && <GuestOrdersConsent />}
        <div role="alert" className="form-error">
          {error}
        </div>
        <button type="submit" className="primary wide" disabled={busy}>
          {submitLabel}
        </button>
      </form>
      <p className="account-switch">{footer}</p>
    </section>
  );
}

/**
 * Orders made in this browser before signing in join the account only if the shopper says so: someone else may have
 * made them (a shared computer, or an attacker who planted their session here). Unticked by default; the orders are
 * listed so the shopper can recognise them.
 */
function GuestOrdersConsent() {
  const session = useLoad(() => api.session(), 'session');
  const orders: GuestOrder[] = session.status === 'ready' ? session.data.guestOrders : [];
  if (orders.length === 0) return null;
  return (
    <fieldset className="guest-orders">
      <legend>{messages.guestOrdersTitle}</legend>
      <ul>
        {orders.map((order) => (
          <li key={order.number}>
            {messages.guestOrderLine(order.number, formatMoney(order.total), new Date(order.createdAt).toLocaleString('en'))}
          </li>
        ))}
      </ul>
      <label className="checkbox-row">
        <input type="checkbox" name="keepGuestOrders" value="yes" />
        {messages.keepGuestOrders}
      </label>
    </fieldset>
  );
}

export function SignInPage() {
  return (
    <AccountForm
      title={messages.signIn}
      fields={['email', 'password']}
      guestOrdersConsent
      submitLabel={messages.signIn}
      submit={async ({ email, password, keepGuestOrders }) => ({
        signedIn: (await api.signIn({ email, password, keepGuestOrders })).account,
      })}
      footer={
        <>
          {messages.noAccount} <Link to={`/sign-up${window.location.search}`}>{messages.signUp}</Link>
        </>
      }
    />
  );
}

export function SignUpPage() {
  return (
    <AccountForm
      title={messages.signUp}
      fields={['name', 'email', 'password']}
      guestOrdersConsent={false}
      submitLabel={messages.signUp}
      submit={async ({ name, email, password }) => {
        // The answer is the same whether or not the email has an account (issue 9): the mail says which.
        await api.signUp({ name, email, password });
        return { mailedTo: email };
      }}
      footer={
        <>
          {messages.haveAccount} <Link to={`/sign-in${window.location.search}`}>{messages.signIn}</Link>
        </>
      }
    />
  );
}

/**
 * Where the sign-up mail's link leads: the account is made (and the shopper signed in) when they press the button, a
 * POST, so a mail scanner that opens links makes nothing; this browser's guest orders join it only if they say so.
 */
export function ConfirmSignUpPage() {
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
  return (
    <AccountForm
      title={messages.confirmSignUpTitle}
      fields={[]}
      guestOrdersConsent
      submitLabel={messages.confirmSignUp}
      submit={async ({ keepGuestOrders }) => ({ signedIn: (await api.confirmSignUp({ token, keepGuestOrders })).account })}
      footer={
        <>
          {messages.haveAccount} <Link to="/sign-in">{messages.signIn}</Link>
        </>
      }
    />
  );
}
