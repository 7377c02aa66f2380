'use client';
// One workspace: its name (admins rename it), its storage used, and tabs: its entries, its API keys
// (?tab=keys), its auditors' keys (?tab=auditors), its activity (?tab=activity) and its webhooks
// (?tab=webhooks) and its retention rules (?tab=retention).
import Link from 'next/link';
import { Suspense } from 'react';
import { useMe } from '@/components/shell/UserContext';
import { EntryBrowser } from '@/components/entries/EntryBrowser';
import { WorkspaceActivity } from '@/components/events/WorkspaceActivity';
import { RetentionPanel } from '@/components/retention/RetentionPanel';
import { WebhooksPanel } from '@/components/webhooks/WebhooksPanel';
import { ErrorNote } from '@/components/ui/ErrorNote';
import { PageHeader } from '@/components/ui/PageHeader';
import { Skeleton } from '@/components/ui/Skeleton';
import { Tabs } from '@/components/ui/Tabs';
import { useOwner } from '@/lib/console/hooks/owners';
import { ApiKeys } from './ApiKeys';
import { AuditorExport } from './AuditorExport';
import { AuditorKeys } from './AuditorKeys';
import { RenameWorkspace } from './RenameWorkspace';
import { UsageSummary } from './Usage';

export function WorkspacePage({ id }: { id: string }) {
  const me = useMe();
  const owner = useOwner(id);
  if (owner.isPending) return <Skeleton rows={6} />;
  if (owner.error) return <ErrorNote error={owner.error} />;
  return (
    <>
      <div className="crumbs">
        <Link href="/workspaces">Workspaces</Link> /
      </div>
      <PageHeader title={owner.data.name}>
        <span className="mono muted id-text">{owner.data.id}</span>
        {me.admin && <RenameWorkspace owner={owner.data} />}
        <AuditorExport ownerId={id} />
      </PageHeader>
      {owner.data.usage && <UsageSummary usage={owner.data.usage} />}
      <Suspense>
        <Tabs
          label="Workspace"
          tabs={[
            { id: 'entries', label: 'Entries', panel: () => <EntryBrowser ownerId={id} /> },
            { id: 'keys', label: 'API keys', panel: () => <ApiKeys owner={owner.data} /> },
            { id: 'auditors', label: 'Auditor keys', panel: () => <AuditorKeys ownerId={id} /> },
            { id: 'activity', label: 'Activity', panel: () => <WorkspaceActivity ownerId={id} /> },
            { id: 'webhooks', label: 'Webhooks', panel: () => <WebhooksPanel ownerId={id} /> },
            { id: 'retention', label: 'Retention', panel: () => <RetentionPanel ownerId={id} /> },
          ]}
        />
      </Suspense>
    </>
  );
}
