'use client';
// "Upload new version": a drop zone whose file becomes the next version of this one. Its identity
// (category, and key or else name) is fixed, so the placeholder lands in the same history. The
// queue belongs to the card: closing the dialog mid-upload neither stops nor forgets the upload.
import { useSyncExternalStore } from 'react';
import { useDropzone } from 'react-dropzone';
import type { UploadQueue } from '@/lib/console/upload/queue';
import type { FileRecord } from '@/lib/schemas/records';
import { UploadRow } from './UploadRow';

export function NewVersionDialog({ file, queue }: { file: FileRecord; queue: UploadQueue }) {
  const items = useSyncExternalStore(queue.subscribe, queue.snapshot, queue.snapshot);
  const identity = { category: file.category, key: file.key ?? '', ...(file.key ? {} : { name: file.name }) };
  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    multiple: false,
    onDrop: (files) => {
      // One file: a second drop takes the place of one not yet sent.
      for (const i of queue.snapshot()) if (i.status === 'ready') queue.remove(i.id);
      queue.add(files.slice(0, 1), { ...identity, desc: file.desc, private: file.private, embeddable: file.embeddable });
    },
  });
  return (
    <div className="stack">
      <p className="muted" style={{ margin: 0 }}>
        The file becomes version v{(file.version ?? (file.previous?.length ?? 0) + 1) + 1} of{' '}
        <strong>{file.key ? `${file.category} · key ${file.key}` : `${file.category} · ${file.name}`}</strong>; the current one stays in the
        history.
      </p>
      <div
        {...getRootProps({
          className: `dropzone${isDragActive ? ' active' : ''}`,
          role: 'button',
          'aria-label': `Drop the new version of ${file.name} here or press Enter to choose it`,
        })}
        data-testid="version-dropzone"
      >
        <input {...getInputProps()} aria-label={`Choose the new version of ${file.name}`} />
        <strong>{isDragActive ? 'Drop to add' : 'Drop the new version here'}</strong>
        <div className="muted">or click to choose a file</div>
      </div>
      {items.length > 0 && (
        <ul className="upload-list" aria-label="New version">
          {items.map((item) => (
            <UploadRow key={item.id} item={item} queue={queue} fixedIdentity />
          ))}
        </ul>
      )}
    </div>
  );
}
