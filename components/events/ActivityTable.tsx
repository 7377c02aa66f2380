'use client';
// A chain's records newest first, a page at a time ("Load more"): when, what (a sentence, and an
// edit's before → after), who, and the entry and file it concerns. Used by the workspace's
// Activity tab and by an entry's page (the entry's own records).
import Link from 'next/link';
import { Badge } from '@/components/ui/Badge';
import { DataTable, type Column } from '@/components/ui/DataTable';
import { LoadMore } from '@/components/ui/LoadMore';
import { ACTOR_KINDS, eventSummary } from '@/lib/console/event-summary';
import { formatDate } from '@/lib/console/format';
import { type ActivityFilter, useActivity } from '@/lib/console/hooks/events';
import type { EventRecord } from '@/lib/schemas/records';
import { ActivityChanges } from './ActivityChanges';
import styles from './activity.module.css';

interface Props {
  ownerId: string;
  filter: ActivityFilter;
  /** the entry column, with a button that narrows the list to the row's entry (not on an entry's own page) */
  onEntry?(entryId: string): void;
  empty?: string;
}

const none = <span className="muted">—</span>;
const shortId = (id: string) => id.slice(0, 8);

export function ActivityTable({ ownerId, filter, onEntry, empty }: Props) {
  const activity = useActivity(ownerId, filter);
  const entryPage = (id: string) => `/workspaces/${ownerId}/entries/${id}`;
  const columns: Column<EventRecord>[] = [
    { head: 'When', className: `muted ${styles.nowrap}`, cell: (e) => <time dateTime={e.at}>{formatDate(e.at)}</time> },
    {
      head: 'What',
      cell: (e) => (
        <>
          <div>
            <Badge>{e.type}</Badge> {eventSummary(e)}
          </div>
          <ActivityChanges event={e} />
        </>
      ),
    },
    {
      head: 'Who',
      cell: (e) => (
        <>
          {e.actor.name} <span className="muted">({ACTOR_KINDS[e.actor.type] ?? e.actor.type})</span>
        </>
      ),
    },
  ];
  if (onEntry)
    columns.push({
      head: 'Entry',
      className: styles.nowrap,
      cell: (e) =>
        e.entry_id ? (
          <span className={styles.entryCell}>
            {e.type === 'entry.deleted' ? (
              <span className="mono">{shortId(e.entry_id)}</span>
            ) : (
              <Link className="mono" href={entryPage(e.entry_id)} aria-label={`Entry ${e.entry_id}`}>
                {shortId(e.entry_id)}
              </Link>
            )}
            {filter.entry !== e.entry_id && (
              <button
                type="button"
                className="btn btn-small"
                onClick={() => onEntry(e.entry_id as string)}
                aria-label={`Only the activity of entry ${e.entry_id}`}
                title="Only this entry's activity"
              >
                only
              </button>
            )}
          </span>
        ) : (
          none
        ),
    });
  columns.push(
    {
      head: 'File',
      wide: true,
      className: 'mono',
      cell: (e) =>
        e.file_id && e.entry_id ? (
          <Link href={entryPage(e.entry_id)} title={e.file_id}>
            {shortId(e.file_id)}
          </Link>
        ) : (
          none
        ),
    },
    { head: '#', wide: true, className: 'muted mono', cell: (e) => e.seq },
  );
  return (
    <>
      <DataTable
        rows={activity.data?.pages.flatMap((p) => p.list)}
        pending={activity.isPending}
        error={activity.error}
        skeletonRows={4}
        rowKey={(e) => e.id}
        label="Activity"
        rowTestId="event-row"
        empty={{ title: 'No activity here', body: empty ?? (filter.type || filter.entry ? 'Nothing matches these filters.' : undefined) }}
        columns={columns}
      />
      <LoadMore pages={activity} />
    </>
  );
}
