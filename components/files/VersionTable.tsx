'use client';
// Every version of a file, newest first: size, hash and time, with preview, download, restore, delete.
import { Badge } from '@/components/ui/bits';
import { formatBytes, formatDate, shortHash } from '@/lib/console/format';
import { previewKind } from '@/lib/console/preview';
import type { FileRecord } from '@/lib/schemas/records';
import { fileHref } from './FilePreview';
import { useFileActions } from './useFileActions';

interface Props {
  file: FileRecord;
  previewing: string | null;
  onPreview(id: string | null): void;
}

export function VersionTable({ file, previewing, onPreview }: Props) {
  const { restore, remove } = useFileActions(file.entry_id);
  const previewable = file.stored && previewKind(file.mime, file.name) !== null;
  const versions = [{ id: file.id, hash: file.hash, size: file.size, created_at: file.created_at }, ...(file.previous ?? [])];
  return (
    <div className="table-wrap">
      <table className="table" aria-label={`Versions of ${file.name}`}>
        <thead>
          <tr><th>Version</th><th>Size</th><th className="hide-sm">SHA-256</th><th className="hide-sm">Created</th><th /></tr>
        </thead>
        <tbody>
          {versions.map((v, i) => {
            const current = i === 0;
            const label = `v${versions.length - i}`;
            return (
              <tr key={v.id} data-testid="version-row">
                <td>{label} {current && <Badge tone="accent">current</Badge>}</td>
                <td>{formatBytes(v.size)}</td>
                <td className="mono hide-sm" title={v.hash}>{shortHash(v.hash)}</td>
                <td className="muted hide-sm">{formatDate(v.created_at)}</td>
                <td>
                  <div className="row" style={{ justifyContent: 'flex-end' }}>
                    {previewable && (
                      <button className="btn btn-small" aria-pressed={previewing === v.id} onClick={() => onPreview(previewing === v.id ? null : v.id)}>
                        {previewing === v.id ? 'Hide' : 'Preview'}
                      </button>
                    )}
                    {file.stored && <a className="btn btn-small" href={fileHref(file.entry_id, v.id, true)} download aria-label={`Download ${label}`}>Download</a>}
                    {!current && (
                      <button className="btn btn-small" disabled={restore.isPending} onClick={() => restore.mutate(v.id)} aria-label={`Restore ${label}`}>
                        Restore
                      </button>
                    )}
                    {!current && (
                      <button
                        className="btn-danger btn-small"
                        aria-label={`Delete ${label}`}
                        onClick={() => confirm(`Delete version ${label}? This cannot be undone.`) && remove.mutate(v.id)}
                      >
                        Delete
                      </button>
                    )}
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
