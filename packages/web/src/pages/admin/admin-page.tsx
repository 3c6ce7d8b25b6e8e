import { useSession } from '../../account/session.ts';
import { messages } from '../../i18n/messages.ts';
import { Link } from '../../router.tsx';

export function AdminPage() {
  const session = useSession();
  if (session.status === 'loading') return <p>{messages.loading}</p>;
  const account = session.account;
  return (
    <section aria-labelledby="admin-title">
      <h1 id="admin-title">{messages.adminTitle}</h1>
      {account?.role === 'admin' ? (
        <p>{messages.adminWelcome(account.name)}</p>
      ) : (
        <p>
          {messages.adminOnly} <Link to="/sign-in">{messages.signIn}</Link>
        </p>
      )}
    </section>
  );
}
