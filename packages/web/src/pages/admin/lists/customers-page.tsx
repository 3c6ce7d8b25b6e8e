import type { FormEvent } from 'react';
import { adminApi } from '../../../api/admin-client.ts';
import type { AdminCustomer } from '../../../api/types.gen.ts';
import { formatMoney } from '../../../format/money.ts';
import { adminMessages } from '../../../i18n/admin-messages.ts';
import { Link } from '../../../router.tsx';
import type { Column } from '../parts/data-table.tsx';
import { formatListDateTime } from '../parts/format.ts';
import { PagedTable } from '../parts/paged-table.tsx';
import { useQueryState } from '../parts/query.ts';

const COLUMNS: Column<AdminCustomer>[] = [
  {
    header: adminMessages.email,
    className: 'ellipsis',
    cell: (c) => (
      <Link to={`/admin/payments?customerEmail=${encodeURIComponent(c.email)}`} className="row-link">
        {c.email}
      </Link>
    ),
  },
  { header: adminMessages.name, cell: (c) => c.name, className: 'hide-narrow' },
  {
    header: adminMessages.spent,
    cell: (c) => (c.spent.length === 0 ? adminMessages.dash : c.spent.map((money) => formatMoney(money)).join(', ')),
    className: 'numeric',
  },
  { header: adminMessages.paymentsCount, cell: (c) => String(c.payments), className: 'numeric hide-narrow' },
  { header: adminMessages.ordersCount, cell: (c) => String(c.orders), className: 'numeric hide-narrow' },
  {
    header: adminMessages.lastPayment,
    cell: (c) => (c.lastPaymentAt === null ? adminMessages.never : formatListDateTime(c.lastPaymentAt)),
    className: 'date hide-narrow',
  },
  { header: adminMessages.created, cell: (c) => formatListDateTime(c.createdAt), className: 'date' },
];

/** The shoppers' accounts, newest first; an email leads to that customer's payments. */
export function CustomersPage() {
  const query = useQueryState();
  const email = query.get('email');
  const cursor = query.get('cursor');

  function search(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    query.set({ email: String(new FormData(event.currentTarget).get('email') ?? '').trim() });
  }

  return (
    <section aria-labelledby="customers-title" className="admin-section">
      <header className="admin-header">
        <h1 id="customers-title">{adminMessages.customersTitle}</h1>
        <form key={email} role="search" className="inline-filter" onSubmit={search}>
          <label htmlFor="customers-email">{adminMessages.emailStartsWith}</label>
          <input id="customers-email" name="email" type="search" autoComplete="off" defaultValue={email} />
          <button type="submit" className="secondary small">
            {adminMessages.search}
          </button>
        </form>
      </header>
      <PagedTable
        key={email}
        params={new URLSearchParams({ ...(email === '' ? {} : { email }), ...(cursor === '' ? {} : { cursor }) })}
        load={async (params) => {
          const page = await adminApi.customers(params);
          return { rows: page.customers, nextCursor: page.nextCursor };
        }}
        onPage={(next) => query.set({ cursor: next }, { keepCursor: true })}
        caption={adminMessages.customersCaption}
        columns={COLUMNS}
        rowKey={(c) => c.id}
        empty={adminMessages.noCustomers}
      />
    </section>
  );
}
