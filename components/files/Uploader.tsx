'use client';
// Drag-and-drop uploads to an entry: many files at once, each hashed in a worker, sent to its
// placeholder url with progress, and cancellable, retryable and resumable.
import { useEffect, useSyncExternalStore } from 'react';
import { useDropzone } from 'react-dropzone';
import { useToast } from '@/components/ui/Toaster';
import { useUploadQueue } from '@/lib/console/hooks/files';
import { isBusy } from '@/lib/console/upload/queue';
import { UploadRow } from './UploadRow';

export function Uploader({ entryId }: { entryId: string }) {
  const toast = useToast();
  const queue = useUploadQueue(entryId, (record) => toast.show(`${record.name} stored`, 'success'));
  const items = useSyncExternalStore(queue.subscribe, queue.snapshot, queue.snapshot);
  const { getRootProps, getInputProps, isDragActive } = useDropzone({ onDrop: (files) => queue.add(files), multiple: true });
  const ready = items.filter((i) => i.status === 'ready').length;
  const busy = items.some((i) => isBusy(i.status));
  const stored = items.filter((i) => i.status === 'stored').length;
  // Closing or reloading the tab mid-upload asks first (the bytes sent so far can be resumed only
  // from this page).
  useEffect(() => {
    if (!busy) return;
    const ask = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [busy]);
  return (
    <section className="panel" aria-labelledby="upload-title">
      <div className="panel-head">
        <h2 id="upload-title">Upload files</h2>
        <div className="row">
          {stored > 0 && !busy && (
            <button type="button" className="btn btn-small" onClick={() => queue.clearFinished()}>
              Clear finished
            </button>
          )}
          <button type="button" className="btn-primary" disabled={ready === 0} onClick={() => queue.startAll()}>
            {ready === 0 ? 'Upload' : `Upload ${ready} ${ready === 1 ? 'file' : 'files'}`}
          </button>
        </div>
      </div>
      <div
        {...getRootProps({
          className: `dropzone${isDragActive ? ' active' : ''}`,
          role: 'button',
          'aria-label': 'Drop files here or press Enter to choose files',
        })}
        data-testid="dropzone"
      >
        <input {...getInputProps()} aria-label="Choose files" />
        <strong>{isDragActive ? 'Drop to add' : 'Drop files here'}</strong>
        <div className="muted">or click to choose. Set category, key and flags below, then upload.</div>
      </div>
      {items.length > 0 && (
        <ul className="upload-list" aria-label="Uploads">
          {items.map((item) => (
            <UploadRow key={item.id} item={item} queue={queue} />
          ))}
        </ul>
      )}
    </section>
  );
}
