'use client';
// One file of an entry: its flags (until when it is kept, a legal hold), an e-invoice's facts, its version history, a preview and its
// actions (edit, a new version, links, delete).
import { useState, useSyncExternalStore } from 'react';
import { Dialog } from '@/components/ui/Dialog';
import { Badge } from '@/components/ui/Badge';
import { ConfirmButton } from '@/components/ui/ConfirmButton';
import { CopyButton } from '@/components/ui/CopyButton';
import { useToast } from '@/components/ui/Toaster';
import { formatBytes } from '@/lib/console/format';
import { useFileActions, useFileLinks, useUploadQueue } from '@/lib/console/hooks/files';
import { isBusy } from '@/lib/console/upload/queue';
import type { FileRecord } from '@/lib/schemas/records';
import { EditFileForm } from './EditFileForm';
import { FileLinkDialog } from './FileLinkDialog';
import { FilePreview } from './FilePreview';
import { InvoiceFactsList } from './InvoiceFactsList';
import { NewVersionDialog } from './NewVersionDialog';
import { KeptUntil, VersionTable } from './VersionTable';

export function FileCard({ file }: { file: FileRecord }) {
  const [previewing, setPreviewing] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [linking, setLinking] = useState(false);
  const toast = useToast();
  const versionQueue = useUploadQueue(file.entry_id, (record) => {
    toast.show(`New version of ${record.name} stored`, 'success');
    setUploading(false);
  });
  const sending = useSyncExternalStore(versionQueue.subscribe, versionQueue.snapshot, versionQueue.snapshot).some((i) => isBusy(i.status));
  const { remove } = useFileActions(file.entry_id, { removed: () => toast.show('Deleted', 'success'), onError: toast.error });
  const { revoke } = useFileLinks(file.entry_id, file.id, {
    revoked: () => toast.show('Every link of this version was revoked', 'success'),
    onError: toast.error,
  });
  const previewed = [{ id: file.id, size: file.size }, ...(file.previous ?? [])].find((v) => v.id === previewing);
  return (
    <article className="file-card" data-testid="file-card" aria-label={file.name}>
      <div className="file-head">
        <div>
          <div className="file-name">{file.name}</div>
          <div className="row muted" style={{ fontSize: '0.82rem' }}>
            <span>{file.mime}</span>·<span>{formatBytes(file.size)}</span>
            {file.key && (
              <>
                ·<span className="mono">key {file.key}</span>
              </>
            )}
          </div>
          {file.desc && <p style={{ margin: '0.3rem 0 0' }}>{file.desc}</p>}
        </div>
        <div className="row">
          {file.stored ? <Badge tone="good">stored</Badge> : <Badge tone="warn">awaiting bytes</Badge>}
          {file.private && <Badge>private</Badge>}
          {file.embeddable && <Badge>embeddable</Badge>}
          {(file.retention || file.legal_hold) && <KeptUntil v={file} />}
          <button type="button" className="btn btn-small" onClick={() => setEditing(true)}>
            Edit
          </button>
          <ConfirmButton
            className="btn-danger btn-small"
            title={`Delete ${file.name} and all its versions?`}
            message="This cannot be undone."
            confirm="Delete file"
            onConfirm={() => remove.mutate(file.id)}
          >
            Delete file
          </ConfirmButton>
        </div>
      </div>
      <fieldset className="row file-actions" aria-label={`Actions on ${file.name}`}>
        <button type="button" className="btn btn-small" onClick={() => setUploading(true)}>
          {sending ? 'Uploading new version…' : 'Upload new version'}
        </button>
        {file.stored && !file.private && <CopyButton value={file.url} label="Copy link" aria-label={`Copy the link of ${file.name}`} />}
        {file.stored && (
          <button type="button" className="btn btn-small" onClick={() => setLinking(true)}>
            Create link…
          </button>
        )}
        {file.stored && (
          <ConfirmButton
            className="btn btn-small"
            title={`Revoke every link of ${file.name}?`}
            message="Links made so far with Create link… stop working at once (403). The file's own url is not affected."
            confirm="Revoke links"
            disabled={revoke.isPending}
            onConfirm={() => revoke.mutate()}
          >
            Revoke links
          </ConfirmButton>
        )}
      </fieldset>
      {file.facts && <InvoiceFactsList facts={file.facts} />}
      <VersionTable file={file} previewing={previewing} onPreview={setPreviewing} />
      {previewed && <FilePreview entryId={file.entry_id} fileId={previewed.id} name={file.name} mime={file.mime} size={previewed.size} />}
      <Dialog open={editing} title={`Edit ${file.name}`} onClose={() => setEditing(false)}>
        <EditFileForm file={file} onDone={() => setEditing(false)} />
      </Dialog>
      <Dialog open={uploading} title={`New version of ${file.name}`} onClose={() => setUploading(false)}>
        <NewVersionDialog file={file} queue={versionQueue} />
      </Dialog>
      <Dialog open={linking} title={`Link to ${file.name}`} onClose={() => setLinking(false)}>
        <FileLinkDialog file={file} />
      </Dialog>
    </article>
  );
}
