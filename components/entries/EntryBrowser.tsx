'use client';
// A workspace's entries, newest first: keyset pages (load more, or scroll to the end), filters
// by environment, folder and key, and a form for a new entry.
import Link from 'next/link';
import { useEffect, useRef, useState } from 'react';
import { Dialog } from '@/components/ui/Dialog';
import { Badge, EmptyState, ErrorNote, Skeleton } from '@/components/ui/bits';
import { formatDate } from '@/lib/console/format';
import { useEntries, type EntryFilter } from '@/lib/console/queries';
import { EntryFilters } from './EntryFilters';
import { NewEntryForm } from './NewEntryForm';

export function EntryBrowser({ ownerId }: { ownerId: string }) {
  const [filter, setFilter] = useState<EntryFilter>({ sandbox: false });
  const [creating, setCreating] = useState(false);
  const entries = useEntries(ownerId, filter);
  const end = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = entries;

  // Infinite scroll: the sentinel below the table asks for the next page when it comes into view.
  useEffect(() => {
    const el = end.current;
    if (!el || !hasNextPage) return;
    const io = new IntersectionObserver((seen) => {
      if (seen[0].isIntersecting && !isFetchingNextPage) fetchNextPage();
    });
    io.observe(el);
    return () => io.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const rows = entries.data?.pages.flatMap((p) => p.list) ?? [];
  return (
    <section className="panel" aria-labelledby="entries-title">
      <div className="panel-head">
        <h2 id="entries-title">Entries</h2>
        <button className="btn-primary" onClick={() => setCreating(true)}>New entry</button>
      </div>
      <EntryFilters value={filter} onChange={setFilter} />
      {entries.isPending ? (
        <Skeleton rows={4} />
      ) : entries.error ? (
        <ErrorNote error={entries.error} />
      ) : rows.length === 0 ? (
        <EmptyState title="No entries here">
          {filter.folder || filter.key ? 'Nothing matches these filters.' : 'Create an entry, then drop files on it.'}
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr><th>Name</th><th>Folder</th><th className="hide-sm">Key</th><th className="hide-sm">Created</th></tr>
            </thead>
            <tbody>
              {rows.map((e) => (
                <tr key={e.id}>
                  <td>
                    <Link href={`/workspaces/${ownerId}/entries/${e.id}`}>{e.name || <span className="mono">{e.id.slice(0, 8)}</span>}</Link>{' '}
                    {e.sandbox && <Badge tone="warn">sandbox</Badge>}
                  </td>
                  <td>{e.folder || <span className="muted">—</span>}</td>
                  <td className="mono hide-sm">{e.key ?? <span className="muted">—</span>}</td>
                  <td className="muted hide-sm">{formatDate(e.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div ref={end} />
      {hasNextPage && (
        <div className="row" style={{ justifyContent: 'center', marginTop: '0.75rem' }}>
          <button className="btn" onClick={() => fetchNextPage()} disabled={isFetchingNextPage}>
            {isFetchingNextPage ? 'Loading…' : 'Load more'}
          </button>
        </div>
      )}
      <Dialog open={creating} title="New entry" onClose={() => setCreating(false)}>
        <NewEntryForm ownerId={ownerId} sandbox={filter.sandbox} />
      </Dialog>
    </section>
  );
}
