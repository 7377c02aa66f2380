'use client';
// "Create link…": a link to this version that works without credentials until it expires.
import { useState } from 'react';
import { CopyButton } from '@/components/ui/CopyButton';
import { ErrorNote } from '@/components/ui/ErrorNote';
import { formatDate } from '@/lib/console/format';
import { useFileLinks } from '@/lib/console/hooks/files';
import type { FileRecord } from '@/lib/schemas/records';

const EXPIRIES = [
  { seconds: 3600, label: '1 hour' },
  { seconds: 86_400, label: '1 day' },
  { seconds: 604_800, label: '7 days' },
];

export function FileLinkDialog({ file }: { file: FileRecord }) {
  const [expiresIn, setExpiresIn] = useState(EXPIRIES[0].seconds);
  const { create } = useFileLinks(file.entry_id, file.id);
  const link = create.data;
  return (
    <div className="stack">
      <p className="muted" style={{ margin: 0 }}>
        Anyone with the link can download this version{file.private ? ' (private as it is)' : ''} until it expires. Revoke links ends every
        link made so far.
      </p>
      <div className="field">
        <label htmlFor={`link-expiry-${file.id}`}>Expires after</label>
        <select id={`link-expiry-${file.id}`} value={expiresIn} onChange={(e) => setExpiresIn(Number(e.target.value))}>
          {EXPIRIES.map((e) => (
            <option key={e.seconds} value={e.seconds}>
              {e.label}
            </option>
          ))}
        </select>
      </div>
      <div className="row">
        <button type="button" className="btn-primary" disabled={create.isPending} onClick={() => create.mutate(expiresIn)}>
          {link ? 'Create another link' : 'Create link'}
        </button>
      </div>
      {create.error && <ErrorNote error={create.error} />}
      {link && (
        <div className="secret" data-testid="file-link">
          <span className="secret-label">Link</span>
          <code className="secret-value" data-testid="file-link-url">
            {link.url}
          </code>
          <CopyButton value={link.url} aria-label="Copy the link" />
          <span className="muted" data-testid="file-link-expiry" style={{ fontSize: '0.82rem', gridColumn: '1 / -1' }}>
            Expires <time dateTime={link.expires_at}>{formatDate(link.expires_at)}</time>
          </span>
        </div>
      )}
    </div>
  );
}
