'use client';
// One workspace: its keys and its entries.
import Link from 'next/link';
import { EntryBrowser } from '@/components/entries/EntryBrowser';
import { ErrorNote } from '@/components/ui/ErrorNote';
import { PageHeader } from '@/components/ui/PageHeader';
import { Skeleton } from '@/components/ui/Skeleton';
import { useOwner } from '@/lib/console/hooks/owners';
import { ApiKeys } from './ApiKeys';

export function WorkspacePage({ id }: { id: string }) {
  const owner = useOwner(id);
  if (owner.isPending) return <Skeleton rows={6} />;
  if (owner.error) return <ErrorNote error={owner.error} />;
  return (
    <>
      <div className="crumbs">
        <Link href="/workspaces">Workspaces</Link> /
      </div>
      <PageHeader title={owner.data.name}>
        <span className="mono muted">{owner.data.id}</span>
      </PageHeader>
      <EntryBrowser ownerId={id} />
      <ApiKeys owner={owner.data} />
    </>
  );
}
