'use client';
// One file in the upload queue: options before sending, then progress, speed and time left.
import { Badge, type Tone } from '@/components/ui/Badge';
import { Check } from '@/components/ui/Check';
import { ProgressBar } from '@/components/ui/ProgressBar';
import { formatBytes, formatDuration } from '@/lib/console/format';
import type { UploadItem, UploadQueue } from '@/lib/console/upload/queue';

const STATUS: Record<UploadItem['status'], { label: string; tone: Tone }> = {
  ready: { label: 'ready', tone: 'neutral' },
  hashing: { label: 'hashing', tone: 'accent' },
  creating: { label: 'creating placeholder', tone: 'accent' },
  uploading: { label: 'uploading', tone: 'accent' },
  stored: { label: 'stored', tone: 'good' },
  failed: { label: 'failed', tone: 'bad' },
  cancelled: { label: 'cancelled', tone: 'warn' },
};

/** `fixedIdentity`: a new version of a file, whose category and key are not the user's to change. */
export function UploadRow({ item, queue, fixedIdentity = false }: { item: UploadItem; queue: UploadQueue; fixedIdentity?: boolean }) {
  const size = item.file.size;
  const st = STATUS[item.status];
  const hashing = item.status === 'hashing';
  const progress = hashing ? item.hashed / (size || 1) : item.sent / (size || 1);
  const canRetry = item.status === 'failed' || item.status === 'cancelled';
  const active = hashing || item.status === 'creating' || item.status === 'uploading';
  return (
    <li className="upload" data-testid="upload-row" data-status={item.status} aria-label={item.file.name}>
      <div className="upload-top">
        <span className="upload-name">{item.file.name}</span>
        <div className="row">
          <Badge tone={st.tone}>{st.label}</Badge>
          {item.status === 'ready' && (
            <button type="button" className="btn btn-small" aria-label={`Upload ${item.file.name}`} onClick={() => queue.start(item.id)}>
              Upload
            </button>
          )}
          {active && (
            <button type="button" className="btn btn-small" onClick={() => queue.cancel(item.id)}>
              Cancel
            </button>
          )}
          {canRetry && (
            <button type="button" className="btn btn-small" onClick={() => queue.start(item.id)}>
              {item.record ? 'Retry' : 'Start again'}
            </button>
          )}
          {!active && (
            <button
              type="button"
              className="btn-icon"
              aria-label={`Remove ${item.file.name} from the list`}
              onClick={() => queue.remove(item.id)}
            >
              ×
            </button>
          )}
        </div>
      </div>
      {item.status === 'ready' ? (
        <Options item={item} queue={queue} fixedIdentity={fixedIdentity} />
      ) : (
        <>
          <ProgressBar value={item.status === 'stored' ? 1 : progress} label={`${hashing ? 'Hashing' : 'Uploading'} ${item.file.name}`} />
          <div className="upload-stats">
            {hashing
              ? `Computing SHA-256… ${Math.round(progress * 100)}%`
              : `${formatBytes(item.status === 'stored' ? size : item.sent)} of ${formatBytes(size)}`}
            {item.status === 'uploading' && item.speed > 0 && ` · ${formatBytes(item.speed)}/s · ${formatDuration(item.eta)} left`}
          </div>
        </>
      )}
      {item.error && (
        <p className="field-error" role="alert" style={{ margin: 0 }}>
          {item.error}
        </p>
      )}
    </li>
  );
}

function Options({ item, queue, fixedIdentity }: { item: UploadItem; queue: UploadQueue; fixedIdentity: boolean }) {
  const o = item.options;
  const set = (p: Partial<typeof o>) => queue.setOptions(item.id, p);
  const n = item.file.name;
  return (
    <div className="upload-options">
      {fixedIdentity ? (
        <span className="muted" style={{ fontSize: '0.85rem' }}>
          {o.category} · {o.key ? `key ${o.key}` : `stored as ${o.name ?? n}`}
        </span>
      ) : (
        <IdentityFields item={item} queue={queue} />
      )}
      <div className="field">
        <label htmlFor={`${item.id}-desc`}>Description</label>
        <input id={`${item.id}-desc`} value={o.desc} onChange={(e) => set({ desc: e.target.value })} />
      </div>
      <div className="row">
        <Check label="Private" checked={o.private} onChange={(v) => set({ private: v })} />
        <Check label="Embeddable" checked={o.embeddable} onChange={(v) => set({ embeddable: v })} />
      </div>
      <span className="muted" style={{ fontSize: '0.8rem' }}>
        {formatBytes(item.file.size)} · {item.file.type || 'application/octet-stream'}
      </span>
    </div>
  );
}

/** Category and key: which file of the entry this one is (a new one, or a new version of one). */
function IdentityFields({ item, queue }: { item: UploadItem; queue: UploadQueue }) {
  const o = item.options;
  const set = (p: Partial<typeof o>) => queue.setOptions(item.id, p);
  return (
    <>
      <div className="field">
        <label htmlFor={`${item.id}-cat`}>Category</label>
        <select id={`${item.id}-cat`} value={o.category} onChange={(e) => set({ category: e.target.value as typeof o.category })}>
          <option value="attachment">Attachment</option>
          <option value="format">Format</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${item.id}-key`}>Key</label>
        <input id={`${item.id}-key`} value={o.key} placeholder={item.file.name} onChange={(e) => set({ key: e.target.value })} />
      </div>
    </>
  );
}
