import { useEffect, type FormEvent } from 'react';
import { adminApi } from '../../../api/admin-client.ts';
import { api } from '../../../api/client.ts';
import type { AdminPayment } from '../../../api/types.gen.ts';
import { useLoad } from '../../../api/use-load.ts';
import { formatMoney, toDecimalString, toMinorUnits } from '../../../format/money.ts';
import { adminMessages } from '../../../i18n/admin-messages.ts';
import { Link } from '../../../router.tsx';
import type { Column } from '../parts/data-table.tsx';
import { formatListDateTime, paymentStatusLabel } from '../parts/format.ts';
import { PagedTable } from '../parts/paged-table.tsx';
import { useQueryState } from '../parts/query.ts';
import { StatusBadge } from '../parts/status-badge.tsx';
import { rememberPaymentsList } from './last-list.ts';

const STATUSES = ['succeeded', 'partially_refunded', 'refunded', 'voided', 'declined', 'pending'] as const;
const SORTS = [
  ['newest', adminMessages.sortNewest],
  ['oldest', adminMessages.sortOldest],
  ['amount_desc', adminMessages.sortAmountDesc],
  ['amount_asc', adminMessages.sortAmountAsc],
] as const;

/** The query members the server's list reads (the page's own, such as none today, stay out of the API call). */
const API_FILTERS = [
  'status',
  'from',
  'to',
  'minAmount',
  'maxAmount',
  'customerEmail',
  'orderNumber',
  'cardLastFour',
  'paymentMethodType',
  'sort',
] as const;
/** The gateway's paymentInstrumentType values a shop's payments carry (cards and the wallets it can turn on). */
const METHOD_TYPES = ['credit_card', 'paypal_account', 'venmo_account', 'apple_pay_card', 'android_pay_card'] as const;

/** A day picked in the form (`YYYY-MM-DD`) as the server's bound: the start of that UTC day, or of the next for `to`. */
function dayBound(day: string, inclusiveEnd: boolean): string {
  const start = Date.parse(`${day}T00:00:00Z`);
  return new Date(inclusiveEnd ? start + 86_400_000 : start).toISOString();
}

export function PaymentsPage() {
  const query = useQueryState();
  // Amounts are typed in the shop's currency (the catalogue's), sent in its minor units.
  const shop = useLoad(() => api.catalogue(), 'catalogue');
  const currency = shop.status === 'ready' ? (shop.data.products[0]?.price.currency ?? 'EUR') : 'EUR';

  const apiQuery = new URLSearchParams();
  for (const name of API_FILTERS) {
    const value = query.get(name);
    if (value !== '') apiQuery.set(name, value);
  }
  const exportQuery = new URLSearchParams(apiQuery);
  const filtersKey = apiQuery.toString();
  const cursor = query.get('cursor');
  if (cursor !== '') apiQuery.set('cursor', cursor);
  const search = query.params.toString();
  useEffect(() => rememberPaymentsList(search === '' ? '' : `?${search}`), [search]);

  function apply(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    const money = (name: string) => {
      const value = text(name);
      const minor = value === '' ? null : toMinorUnits(value, currency);
      return minor === null ? '' : String(minor);
    };
    query.set({
      status: text('status'),
      from: text('from') === '' ? '' : dayBound(text('from'), false),
      to: text('to') === '' ? '' : dayBound(text('to'), true),
      minAmount: money('minAmount'),
      maxAmount: money('maxAmount'),
      customerEmail: text('customerEmail'),
      orderNumber: text('orderNumber'),
      cardLastFour: text('cardLastFour'),
      paymentMethodType: text('paymentMethodType'),
      sort: text('sort') === 'newest' ? '' : text('sort'),
    });
  }

  const dayOf = (name: string, inclusiveEnd: boolean) => {
    const value = query.get(name);
    if (value === '') return '';
    return new Date(Date.parse(value) - (inclusiveEnd ? 86_400_000 : 0)).toISOString().slice(0, 10);
  };
  const amountOf = (name: string) => {
    const value = query.get(name);
    return value === '' ? '' : toDecimalString({ amount: Number(value), currency });
  };

  return (
    <section aria-labelledby="payments-title" className="admin-section">
      <header className="admin-header">
        <h1 id="payments-title">{adminMessages.paymentsTitle}</h1>
        <a className="button secondary" href={adminApi.paymentsExportUrl(exportQuery)} download>
          {adminMessages.exportCsv}
        </a>
      </header>
      {/* Keyed by the query: Back or a link with other filters shows them in the form. */}
      <form key={`form:${filtersKey}`} className="filters card" onSubmit={apply} aria-label={adminMessages.filters}>
        <p className="form-row">
          <label htmlFor="filter-status">{adminMessages.status}</label>
          <select id="filter-status" name="status" defaultValue={query.get('status')}>
            <option value="">{adminMessages.allStatuses}</option>
            {STATUSES.map((status) => (
              <option key={status} value={status}>
                {paymentStatusLabel(status)}
              </option>
            ))}
          </select>
        </p>
        <p className="form-row">
          <label htmlFor="filter-from">{adminMessages.from}</label>
          <input id="filter-from" name="from" type="date" defaultValue={dayOf('from', false)} />
        </p>
        <p className="form-row">
          <label htmlFor="filter-to">{adminMessages.to}</label>
          <input id="filter-to" name="to" type="date" defaultValue={dayOf('to', true)} />
        </p>
        <p className="form-row">
          <label htmlFor="filter-min">{`${adminMessages.minAmount} (${currency})`}</label>
          <input
            id="filter-min"
            name="minAmount"
            inputMode="decimal"
            pattern="\d+([.,]\d{1,3})?"
            defaultValue={amountOf('minAmount')}
          />
        </p>
        <p className="form-row">
          <label htmlFor="filter-max">{`${adminMessages.maxAmount} (${currency})`}</label>
          <input
            id="filter-max"
            name="maxAmount"
            inputMode="decimal"
            pattern="\d+([.,]\d{1,3})?"
            defaultValue={amountOf('maxAmount')}
          />
        </p>
        <p className="form-row">
          <label htmlFor="filter-email">{adminMessages.customerEmail}</label>
          <input
            id="filter-email"
            name="customerEmail"
            type="email"
            autoComplete="off"
            defaultValue={query.get('customerEmail')}
          />
        </p>
        <p className="form-row">
          <label htmlFor="filter-order">{adminMessages.orderNumberFilter}</label>
          <input
            id="filter-order"
            name="orderNumber"
            inputMode="numeric"
            pattern="\d+"
            autoComplete="off"
            defaultValue={query.get('orderNumber')}
          />
        </p>
        <p className="form-row">
          <label htmlFor="filter-last-four">{adminMessages.cardLastFour}</label>
          <input
            id="filter-last-four"
            name="cardLastFour"
            inputMode="numeric"
            pattern="\d{4}"
            maxLength={4}
            autoComplete="off"
            defaultValue={query.get('cardLastFour')}
          />
        </p>
        <p className="form-row">
          <label htmlFor="filter-method">{adminMessages.paymentMethod}</label>
          <select id="filter-method" name="paymentMethodType" defaultValue={query.get('paymentMethodType')}>
            <option value="">{adminMessages.allMethods}</option>
            {METHOD_TYPES.map((type) => (
              <option key={type} value={type}>
                {adminMessages.methodType[type] ?? type}
              </option>
            ))}
          </select>
        </p>
        <p className="form-row">
          <label htmlFor="filter-sort">{adminMessages.sort}</label>
          <select id="filter-sort" name="sort" defaultValue={query.get('sort') || 'newest'}>
            {SORTS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </p>
        <div className="filters-actions">
          <button type="submit" className="primary small">
            {adminMessages.applyFilters}
          </button>
          <button
            type="button"
            className="secondary small"
            onClick={() => query.set(Object.fromEntries(API_FILTERS.map((name) => [name, null])))}
          >
            {adminMessages.clearFilters}
          </button>
        </div>
      </form>
      <PagedTable
        key={`table:${filtersKey}`}
        params={apiQuery}
        load={async (params) => {
          const page = await adminApi.payments(params);
          return { rows: page.payments, nextCursor: page.nextCursor };
        }}
        onPage={(next) => query.set({ cursor: next }, { keepCursor: true })}
        caption={adminMessages.paymentsCaption}
        columns={COLUMNS}
        rowKey={(payment) => payment.id}
        empty={adminMessages.noPayments}
      />
    </section>
  );
}

const COLUMNS: Column<AdminPayment>[] = [
  {
    header: adminMessages.amount,
    className: 'numeric',
    cell: (payment) => (
      <Link to={`/admin/payments/${payment.id}`} className="row-link">
        <span className="amount">{formatMoney(payment.amount)}</span> <span className="currency">{payment.amount.currency}</span>
      </Link>
    ),
  },
  {
    header: adminMessages.status,
    cell: (payment) => <StatusBadge status={payment.status} label={paymentStatusLabel(payment.status)} />,
  },
  {
    header: adminMessages.paymentMethod,
    className: 'hide-narrow',
    cell: (payment) =>
      payment.card === null ? adminMessages.dash : adminMessages.cardEnding(payment.card.brand, payment.card.lastFour),
  },
  {
    header: adminMessages.customer,
    className: 'hide-narrow ellipsis',
    cell: (payment) => payment.customer?.email ?? <span className="muted">{adminMessages.guest}</span>,
  },
  {
    header: adminMessages.order,
    className: 'hide-narrow nowrap',
    cell: (payment) => adminMessages.orderNumber(payment.order.number),
  },
  { header: adminMessages.date, className: 'date', cell: (payment) => formatListDateTime(payment.createdAt) },
];
