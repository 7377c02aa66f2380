'use client';
// A workspace's Activity tab: its event log newest first, filtered by environment, type and entry
// (kept in the URL), and "Verify", which has the server recompute the chain.
import { useActivityFilterInUrl } from '@/lib/console/activity-filter-url';
import { ActivityFilters } from './ActivityFilters';
import { ActivityTable } from './ActivityTable';
import { VerifyButton, VerifyResult } from './VerifyChain';

export function WorkspaceActivity({ ownerId }: { ownerId: string }) {
  const [filter, setFilter] = useActivityFilterInUrl();
  return (
    <section className="panel" aria-labelledby="activity-title">
      <div className="panel-head">
        <h2 id="activity-title">Activity</h2>
        <VerifyButton ownerId={ownerId} sandbox={filter.sandbox} />
      </div>
      <VerifyResult ownerId={ownerId} sandbox={filter.sandbox} />
      <ActivityFilters value={filter} onChange={setFilter} />
      <ActivityTable ownerId={ownerId} filter={filter} onEntry={(entry) => setFilter({ entry })} />
    </section>
  );
}
