'use client';
// A workspace's entries, newest first: keyset pages (load more, or scroll to the end), a folder
// tree beside them (a folder lists its subtree), a search, filters by environment and key, and a
// form for a new entry. Self-contained: it needs only the workspace id; what it shows is in the URL.
import Link from 'next/link';
import { useEffect, useRef, useState } from 'react';
import { EnvironmentBadge } from '@/components/ui/Badge';
import { DataTable, createdColumn } from '@/components/ui/DataTable';
import { Dialog } from '@/components/ui/Dialog';
import { LoadMore } from '@/components/ui/LoadMore';
import { useEntryFilterInUrl } from '@/lib/console/entry-filter-url';
import { useEntries } from '@/lib/console/hooks/entries';
import { EntryFilters } from './EntryFilters';
import { FolderTree } from './FolderTree';
import { NewEntryForm } from './NewEntryForm';

const none = <span className="muted">—</span>;

export function EntryBrowser({ ownerId }: { ownerId: string }) {
  const [filter, setFilter] = useEntryFilterInUrl();
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

  return (
    <section className="panel" aria-labelledby="entries-title">
      <div className="panel-head">
        <h2 id="entries-title">Entries</h2>
        <button type="button" className="btn-primary" onClick={() => setCreating(true)}>
          New entry
        </button>
      </div>
      <EntryFilters value={filter} onChange={setFilter} />
      <div className="entry-browser">
        <FolderTree
          ownerId={ownerId}
          sandbox={filter.sandbox}
          selected={filter.folder}
          onSelect={(folder) => setFilter({ folder }, 'push')}
        />
        <div className="entry-browser-list">
          {filter.folder !== undefined && (
            <p className="muted entry-browser-where">
              In <strong>{filter.folder}</strong> and its subfolders
            </p>
          )}
          <DataTable
            rows={entries.data?.pages.flatMap((p) => p.list)}
            pending={entries.isPending}
            error={entries.error}
            skeletonRows={4}
            rowKey={(e) => e.id}
            empty={{
              title: 'No entries here',
              body:
                filter.folder || filter.key || filter.q || filter.facts
                  ? 'Nothing matches these filters.'
                  : 'Create an entry, then drop files on it.',
            }}
            columns={[
              {
                head: 'Name',
                cell: (e) => (
                  <>
                    <Link href={`/workspaces/${ownerId}/entries/${e.id}`}>
                      {e.name || <span className="mono">{e.id.slice(0, 8)}</span>}
                    </Link>{' '}
                    {e.sandbox && <EnvironmentBadge sandbox />}
                  </>
                ),
              },
              { head: 'Folder', cell: (e) => e.folder || none },
              { head: 'Key', wide: true, className: 'mono', cell: (e) => e.key ?? none },
              { head: 'Files', cell: (e) => e.file_count },
              createdColumn,
            ]}
          />
          <div ref={end} />
          <LoadMore pages={entries} />
        </div>
      </div>
      <Dialog open={creating} title="New entry" onClose={() => setCreating(false)}>
        <NewEntryForm ownerId={ownerId} sandbox={filter.sandbox} />
      </Dialog>
    </section>
  );
}
