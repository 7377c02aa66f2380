'use client';
// An entry's own records (the event log filtered by entry_id), newest first, on the entry's page.
import Link from 'next/link';
import type { Entry } from '@/lib/schemas/records';
import { ActivityTable } from './ActivityTable';

export function EntryActivity({ ownerId, entry }: { ownerId: string; entry: Entry }) {
  const all = `/workspaces/${ownerId}?tab=activity&entry=${entry.id}${entry.sandbox ? '&env=sandbox' : ''}`;
  return (
    <section className="panel" aria-labelledby="entry-activity-title">
      <div className="panel-head">
        <h2 id="entry-activity-title">Activity</h2>
        <Link href={all}>In the workspace&apos;s activity</Link>
      </div>
      <ActivityTable ownerId={ownerId} filter={{ sandbox: entry.sandbox, entry: entry.id }} empty="Nothing recorded for this entry yet." />
    </section>
  );
}
