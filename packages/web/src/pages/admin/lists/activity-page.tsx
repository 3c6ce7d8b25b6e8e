import { adminApi } from '../../../api/admin-client.ts';
import type { ActivityEntry } from '../../../api/types.gen.ts';
import { adminMessages } from '../../../i18n/admin-messages.ts';
import { Link } from '../../../router.tsx';
import type { Column } from '../parts/data-table.tsx';
import { formatListDateTime } from '../parts/format.ts';
import { StatusBadge } from '../parts/status-badge.tsx';
import { FilteredListPage } from './filtered-list-page.tsx';

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
  { header: adminMessages.when, cell: (e) => formatListDateTime(e.at), className: 'date' },
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
  return (
    <FilteredListPage
      name="activity"
      title={adminMessages.activityTitle}
      filter={{
        param: 'scope',
        values: ['all'],
        label: () => adminMessages.activityAll,
        title: adminMessages.activityShow,
        allLabel: adminMessages.activityChanges,
      }}
      intro={adminMessages.activityIntro}
      load={async (params) => {
        const page = await adminApi.activity(params);
        return { rows: page.entries, nextCursor: page.nextCursor };
      }}
      caption={adminMessages.activityCaption}
      columns={COLUMNS}
      rowKey={(e) => e.id}
      empty={adminMessages.noActivity}
    />
  );
}
