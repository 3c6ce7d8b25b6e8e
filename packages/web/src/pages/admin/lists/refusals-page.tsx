import { adminApi } from '../../../api/admin-client.ts';
import type { Refusal } from '../../../api/types.gen.ts';
import { adminMessages } from '../../../i18n/admin-messages.ts';
import type { Column } from '../parts/data-table.tsx';
import { formatListDateTime } from '../parts/format.ts';
import { StatusBadge } from '../parts/status-badge.tsx';
import { FilteredListPage } from './filtered-list-page.tsx';

const KINDS = ['velocity', 'botcheck'] as const;
/** The server's names (`payments_per_ip_per_hour`, `sign_in`) read as words. */
const words = (text: string) => text.replaceAll('_', ' ');
const kindLabel = (kind: string) => adminMessages.refusalKind[kind] ?? kind;

const COLUMNS: Column<Refusal>[] = [
  { header: adminMessages.when, cell: (r) => formatListDateTime(r.at), className: 'date' },
  { header: adminMessages.refusedBy, cell: (r) => <StatusBadge status={r.kind} label={kindLabel(r.kind)} /> },
  { header: adminMessages.refusalAction, cell: (r) => words(r.action) },
  {
    header: adminMessages.refusalRule,
    cell: (r) => (r.kind === 'botcheck' ? (r.reason ?? adminMessages.dash) : words(r.rule)),
  },
  {
    header: adminMessages.refusalSource,
    // The subject is an IP, an id or a keyed hash (never a card number or an email): shown short, whole on hover.
    cell: (r) => (
      <>
        <span className="cell-title">{adminMessages.refusalDimension[r.dimension] ?? words(r.dimension)}</span>
        <code className="cell-detail muted" title={r.subject}>
          {r.subject.length > 24 ? `${r.subject.slice(0, 24)}…` : r.subject}
        </code>
      </>
    ),
    className: 'hide-narrow',
  },
];

/** What the card-testing defence refused (velocity rules, failed bot checks), newest first, filtered by which. */
export function RefusalsPage() {
  return (
    <FilteredListPage
      name="refusals"
      title={adminMessages.refusalsTitle}
      filter={{
        param: 'kind',
        values: KINDS,
        label: kindLabel,
        title: adminMessages.refusedBy,
        allLabel: adminMessages.allRefusals,
      }}
      intro={adminMessages.refusalsIntro}
      load={async (params) => {
        const page = await adminApi.refusals(params);
        return { rows: page.refusals, nextCursor: page.nextCursor };
      }}
      caption={adminMessages.refusalsCaption}
      columns={COLUMNS}
      rowKey={(r) => r.id}
      empty={adminMessages.noRefusals}
    />
  );
}
