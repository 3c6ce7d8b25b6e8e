import { adminApi } from '../../../api/admin-client.ts';
import type { ActivityEntry } from '../../../api/types.gen.ts';
import { adminMessages } from '../../../i18n/admin-messages.ts';
import { Link } from '../../../router.tsx';
import type { Column } from '../parts/data-table.tsx';
import { formatDateTime } from '../parts/format.ts';
import { PagedTable } from '../parts/paged-table.tsx';
import { useQueryState } from '../parts/query.ts';
import { StatusBadge } from '../parts/status-badge.tsx';
import { StatusFilter } from './status-filter.tsx';

/** The record an entry acted on, linked to its page when the dashboard has one. */
function target(entry: ActivityEntry) {
  if (entry.targetId === null) return adminMessages.dash;
  const page = entry.action.startsWith('payments.')
    ? `/admin/payments/${entry.targetId}`
    : entry.action.startsWith('disputes.')
      ? `/admin/disputes/${entry.targetId}`
      : null;
  return page === null ? <code>{entry.targetId}</code> : <Link to={page}>{entry.targetId}</Link>;
}

/** How it was answered: done, refused (with the status), or a saved answer sent again (nothing done twice). */
function outcome(entry: ActivityEntry) {
  if (entry.replayed) return <StatusBadge status="replayed" label={adminMessages.activityReplayed} />;
  if (entry.status < 300) return <StatusBadge status="succeeded" label={adminMessages.activityDone} />;
  return <StatusBadge status="declined" label={adminMessages.activityRefused(entry.status)} />;
}

const COLUMNS: Column<ActivityEntry>[] = [
  { header: adminMessages.when, cell: (e) => formatDateTime(e.at), className: 'wrap-narrow' },
  { header: adminMessages.activityWho, cell: (e) => e.actorEmail ?? adminMessages.dash, className: 'wrap-wide' },
  { header: adminMessages.activityWhat, cell: (e) => adminMessages.activityAction[e.action] ?? e.action },
  { header: adminMessages.activityOn, cell: target, className: 'wrap-wide' },
  { header: adminMessages.activityResult, cell: outcome },
];

/**
 * The audit log: who changed what and when (refunds, voids, cancels, dispute answers), or every admin request, reads
 * too; newest first, paged by cursor.
 */
export function ActivityPage() {
  const query = useQueryState();
  const scope = query.get('scope');
  const cursor = query.get('cursor');
  return (
    <section aria-labelledby="activity-title" className="admin-section">
      <header className="admin-header">
        <h1 id="activity-title">{adminMessages.activityTitle}</h1>
        <StatusFilter
          id="activity-scope"
          statuses={['all']}
          value={scope}
          label={() => adminMessages.activityAll}
          title={adminMessages.activityShow}
          allLabel={adminMessages.activityChanges}
          onChange={(value) => query.set({ scope: value })}
        />
      </header>
      <p className="muted section-intro">{adminMessages.activityIntro}</p>
      <PagedTable
        key={scope}
        params={new URLSearchParams({ ...(scope === '' ? {} : { scope }), ...(cursor === '' ? {} : { cursor }) })}
        load={async (params) => {
          const page = await adminApi.activity(params);
          return { rows: page.entries, nextCursor: page.nextCursor };
        }}
        onPage={(next) => query.set({ cursor: next }, { keepCursor: true })}
        caption={adminMessages.activityCaption}
        columns={COLUMNS}
        rowKey={(e) => e.id}
        empty={adminMessages.noActivity}
      />
    </section>
  );
}
