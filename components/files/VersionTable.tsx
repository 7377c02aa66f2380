'use client';
// Every version of a file, newest first, and its story: who made it, its description, what it was
// restored from, its exact size and full hash, until when it is kept (its retention and its entry's
// legal hold); with preview, download, restore, delete.
import { Badge } from '@/components/ui/Badge';
import { ConfirmButton } from '@/components/ui/ConfirmButton';
import { DataTable, createdColumn } from '@/components/ui/DataTable';
import { CopyButton } from '@/components/ui/CopyButton';
import { useToast } from '@/components/ui/Toaster';
import { formatBytes, shortHash } from '@/lib/console/format';
import { formatUtc } from '@/lib/console/retention-date';
import { fileHref, useFileActions } from '@/lib/console/hooks/files';
import { previewKind } from '@/lib/console/preview';
import type { FileRecord, PreviousVersion } from '@/lib/schemas/records';

const ACTOR_KIND = { app: 'app', user: 'user', admin: 'admin', owner_key: 'API key' } as const;

/** "Invoicer (app)"; versions made before authors were recorded have none. */
/** A version's retention and hold as its row and its file's card show them. */
export function KeptUntil({ v }: { v: Pick<PreviousVersion, 'retention' | 'legal_hold'> }) {
  if (!v.retention && !v.legal_hold) return <span className="muted">—</span>;
  return (
    <span className="row" data-testid="version-retention">
      {v.retention && (
        <span title={`${v.retention.mode} retention: it cannot be deleted before then`}>
          until {formatUtc(v.retention.retain_until)}{' '}
          <Badge tone={v.retention.mode === 'compliance' ? 'warn' : 'neutral'}>{v.retention.mode}</Badge>
        </span>
      )}
      {v.legal_hold && <Badge tone="warn">legal hold</Badge>}
    </span>
  );
}

export const authorOf = (v: PreviousVersion) => (v.created_by ? `${v.created_by.name} (${ACTOR_KIND[v.created_by.type]})` : 'not recorded');

interface Props {
  file: FileRecord;
  previewing: string | null;
  onPreview(id: string | null): void;
}

export function VersionTable({ file, previewing, onPreview }: Props) {
  const toast = useToast();
  const { restore, remove } = useFileActions(file.entry_id, {
    restored: () => toast.show('Version restored as the current one', 'success'),
    removed: () => toast.show('Deleted', 'success'),
    onError: toast.error,
  });
  const previewable = file.stored && previewKind(file.mime, file.name) !== null;
  const versions: PreviousVersion[] = [
    {
      id: file.id,
      name: file.name,
      hash: file.hash,
      size: file.size,
      desc: file.desc,
      version: file.version,
      created_by: file.created_by,
      restored_from: file.restored_from,
      retention: file.retention,
      legal_hold: file.legal_hold,
      created_at: file.created_at,
    },
    ...(file.previous ?? []),
  ];
  // The version's own number; an older record without one counts from the list.
  const label = (i: number) => `v${versions[i].version ?? versions.length - i}`;
  return (
    <DataTable
      label={`Versions of ${file.name}`}
      rows={versions}
      rowKey={(v) => v.id}
      rowTestId="version-row"
      columns={[
        {
          head: 'Version',
          cell: (v, i) => (
            <>
              {label(i)} {i === 0 && <Badge tone="accent">current</Badge>}
              {v.restored_from && (
                <div className="muted version-note" data-testid="restored-from">
                  restored from v{v.restored_from.version}
                </div>
              )}
            </>
          ),
        },
        { head: 'File', className: 'mono', cell: (v) => <span data-testid="version-name">{v.name}</span> },
        {
          head: 'Created by',
          cell: (v) => (
            <span data-testid="created-by" className={v.created_by ? undefined : 'muted'}>
              {authorOf(v)}
            </span>
          ),
        },
        { head: 'Description', wide: true, cell: (v) => <span data-testid="version-desc">{v.desc}</span> },
        {
          head: 'Size',
          cell: (v) => (
            <span className="version-size" data-testid="version-size" title={`${v.size} bytes`}>
              {formatBytes(v.size)}
            </span>
          ),
        },
        {
          head: 'SHA-256',
          wide: true,
          className: 'mono',
          cell: (v, i) => (
            <span className="row version-hash">
              <span title={v.hash} data-testid="version-hash" data-hash={v.hash}>
                {shortHash(v.hash)}
              </span>
              <CopyButton value={v.hash} label="Copy" aria-label={`Copy the SHA-256 of ${label(i)}`} />
            </span>
          ),
        },
        { head: 'Kept', cell: (v) => <KeptUntil v={v} /> },
        createdColumn,
        {
          actions: true,
          cell: (v, i) => (
            <div className="row">
              {previewable && (
                <button
                  type="button"
                  className="btn btn-small"
                  aria-pressed={previewing === v.id}
                  onClick={() => onPreview(previewing === v.id ? null : v.id)}
                >
                  {previewing === v.id ? 'Hide' : 'Preview'}
                </button>
              )}
              {file.stored && (
                <a className="btn btn-small" href={fileHref(file.entry_id, v.id, true)} download aria-label={`Download ${label(i)}`}>
                  Download
                </a>
              )}
              {i > 0 && (
                <button
                  type="button"
                  className="btn btn-small"
                  disabled={restore.isPending}
                  onClick={() => restore.mutate(v.id)}
                  aria-label={`Restore ${label(i)}`}
                >
                  Restore
                </button>
              )}
              {i > 0 && (
                <ConfirmButton
                  className="btn-danger btn-small"
                  aria-label={`Delete ${label(i)}`}
                  title={`Delete version ${label(i)}?`}
                  message="This cannot be undone."
                  confirm="Delete version"
                  onConfirm={() => remove.mutate(v.id)}
                >
                  Delete
                </ConfirmButton>
              )}
            </div>
          ),
        },
      ]}
    />
  );
}
