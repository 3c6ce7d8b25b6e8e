import type { ReactNode } from 'react';
import type { Money, Problem } from '../../../api/types.ts';
import { formatMoney } from '../../../format/money.ts';
import { adminProblemMessage } from '../../../i18n/admin-messages.ts';
import { LoadFailed } from '../../../layout/load-failed.tsx';
import { Link } from '../../../router.tsx';
import { StatusBadge } from './status-badge.tsx';

// The parts every one-record page of the dashboard shares (a payment, a dispute): the way back to its list, a header
// with the amount, status and actions, and its facts as a definition list.

export interface BackLink {
  to: string;
  label: string;
}

/** The record could not be loaded: the way back, why, and Try again when another try may answer. */
export function DetailLoadFailed({ back, problem, retry }: { back: BackLink; problem: Problem; retry(): void }) {
  return (
    <section className="admin-section">
      <Link to={back.to} className="back-link">
        {back.label}
      </Link>
      <LoadFailed problem={problem} retry={retry} describe={adminProblemMessage} />
    </section>
  );
}

/**
 * The way back, the record's kind, its amount as the page's heading (`titleId`) with its status, a line about it, its
 * actions, and the sentence saying what the last one did (a live region).
 */
export function DetailHeader({
  back,
  eyebrow,
  titleId,
  amount,
  status,
  about,
  actions,
  notice,
}: {
  back: BackLink;
  eyebrow: string;
  titleId: string;
  amount: Money;
  status: { status: string; label: string };
  about: ReactNode;
  actions: ReactNode;
  notice: string;
}) {
  return (
    <>
      <Link to={back.to} className="back-link">
        {back.label}
      </Link>
      <header className="payment-header">
        <div>
          <p className="eyebrow">{eyebrow}</p>
          <h1 id={titleId} className="payment-amount">
            {formatMoney(amount)} <span className="currency">{amount.currency}</span>{' '}
            <StatusBadge status={status.status} label={status.label} />
          </h1>
          <p className="muted">{about}</p>
        </div>
        <div className="payment-actions">{actions}</div>
      </header>
      <p role="status" className="notice">
        {notice}
      </p>
    </>
  );
}

/** A record's facts, term beside value. */
export function Facts({ facts }: { facts: readonly (readonly [string, ReactNode])[] }) {
  return (
    <dl className="facts">
      {facts.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
