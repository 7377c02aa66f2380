'use client';
// Every version of a file, newest first: size, hash and time, with preview, download, restore, delete.
import { Badge } from '@/components/ui/Badge';
import { ConfirmButton } from '@/components/ui/ConfirmButton';
import { DataTable, createdColumn } from '@/components/ui/DataTable';
import { useToast } from '@/components/ui/Toaster';
import { formatBytes, shortHash } from '@/lib/console/format';
import { fileHref, useFileActions } from '@/lib/console/hooks/files';
import { previewKind } from '@/lib/console/preview';
import type { FileRecord, PreviousVersion } from '@/lib/schemas/records';

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
      hash: file.hash,
      size: file.size,
      desc: file.desc,
      version: file.version,
      created_by: file.created_by,
      restored_from: file.restored_from,
      created_at: file.created_at,
    },
    ...(file.previous ?? []),
  ];
  const label = (i: number) => `v${versions.length - i}`;
  return (
    <DataTable
      label={`Versions of ${file.name}`}
      rows={versions}
      rowKey={(v) => v.id}
      rowTestId="version-row"
      columns={[
        {
          head: 'Version',
          cell: (_, i) => (
            <>
              {label(i)} {i === 0 && <Badge tone="accent">current</Badge>}
            </>
          ),
        },
        { head: 'Size', cell: (v) => formatBytes(v.size) },
        { head: 'SHA-256', wide: true, className: 'mono', cell: (v) => <span title={v.hash}>{shortHash(v.hash)}</span> },
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
