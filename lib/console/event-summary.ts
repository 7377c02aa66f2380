// What an event record says, as a person reads it: one line per record, and for an edit
// (`*.updated`, `workspace.renamed`) each changed field before → after.
import type { EventRecord } from '../schemas/records';
import { formatBytes, formatDate } from './format';

type Data = Record<string, unknown>;

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
const quoted = (v: unknown) => (typeof v === 'string' && v !== '' ? `“${v}”` : '');
const size = (d: Data) => (num(d.size) !== undefined ? ` (${formatBytes(num(d.size) as number)})` : '');
const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A file as its records name it: its name, or its category and key. */
const fileName = (d: Data) => str(d.name) || [str(d.category), str(d.key)].filter(Boolean).join(' ') || 'a file';

/** The line a record shows: what happened, in the words of the catalogue (docs/api.md, Events). */
export function eventSummary(e: Pick<EventRecord, 'type' | 'data' | 'version'>): string {
  const d = (e.data ?? {}) as Data;
  const v = e.version ? ` version ${e.version}` : '';
  switch (e.type) {
    case 'entry.created':
      return ['Entry', quoted(d.name), 'created', d.key ? `with key ${d.key}` : '', d.folder ? `in ${d.folder}` : '']
        .filter(Boolean)
        .join(' ');
    case 'entry.updated':
      return 'Entry edited';
    case 'entry.deleted': {
      const files = Array.isArray(d.files) ? d.files.length : 0;
      return ['Entry', quoted(d.name), `deleted with ${count(files, 'file version')}`].filter(Boolean).join(' ');
    }
    case 'file.created':
      return d.placeholder ? `Placeholder for ${fileName(d)}${size(d)} made, waiting for its bytes` : `${fileName(d)}${size(d)} sent`;
    case 'file.stored':
      return `${fileName(d)}${v} stored${size(d)}`;
    case 'file.updated':
      return `File${v} edited`;
    case 'file.deleted': {
      const versions = Array.isArray(d.versions) ? (d.versions as Data[]) : [];
      const name = versions[0] ? fileName(versions[0]) : fileName(d);
      return d.whole ? `${name} deleted with ${count(versions.length, 'version')}` : `${name}${v} deleted`;
    }
    case 'file.restored': {
      const from = (d.from ?? {}) as Data;
      return `${fileName(d)} version ${num(from.version) ?? '?'} restored as${v || ' a new version'}`;
    }
    case 'link.created':
      return `Link to${v || ' a version'} made, expires ${str(d.expires_at) ? formatDate(d.expires_at as string) : '—'}`;
    case 'link.revoked':
      return `Every link to${v || ' a version'} revoked`;
    case 'enrollment.created':
      return `Application ${quoted(d.app_name) || str(d.app_id) || ''} enrolled`;
    case 'enrollment.authorized':
      return `Application authorized, token valid until ${num(d.token_expires) ? formatDate(new Date((d.token_expires as number) * 1000).toISOString()) : '—'}`;
    case 'enrollment.disabled':
      return 'Enrollment disabled: its tokens stop working';
    case 'enrollment.enabled':
      return 'Enrollment enabled again';
    case 'key.created':
      return `API key ${str(d.prefix) ?? ''} made`;
    case 'key.revoked':
      return `API key ${str(d.prefix) ?? ''} revoked`;
    case 'workspace.renamed':
      return 'Workspace renamed';
    case 'auditor_key.created':
      return `Auditor key ${str(d.prefix) ?? ''} made for ${str(d.from) ?? '?'} to ${str(d.to) ?? '?'} (excl.)${d.note ? `: ${quoted(d.note)}` : ''}`;
    case 'auditor_key.revoked':
      return `Auditor key ${str(d.prefix) ?? ''} revoked`;
    case 'auditor_key.used':
      return `Auditor key used: ${str(d.method) ?? ''} ${str(d.path) ?? ''}`.trimEnd();
    case 'webhook.created':
      return `Webhook endpoint ${str(d.url) ?? ''} added`;
    case 'webhook.updated': {
      const after = (d.after ?? {}) as Data;
      if (after.disabled === true)
        return after.disabled_reason === 'gone'
          ? 'Webhook endpoint disabled: it answered 410'
          : after.disabled_reason === 'failing'
            ? 'Webhook endpoint disabled: failing for 5 days'
            : 'Webhook endpoint disabled';
      return after.disabled === false ? 'Webhook endpoint enabled again' : 'Webhook endpoint edited';
    }
    case 'webhook.deleted':
      return `Webhook endpoint ${str(d.url) ?? ''} removed`;
    case 'webhook.secret_rotated':
      return 'Webhook secret rotated; the previous one signs for 24 hours';
    default:
      return e.type;
  }
}

export interface Change {
  /** the field, `meta.<key>` for one pair of meta */
  field: string;
  before: string;
  after: string;
}

/** A value as an edit shows it: text in quotes (so an empty one shows), none for absent. */
export function changeValue(v: unknown): string {
  if (v === undefined || v === null) return 'none';
  if (typeof v === 'string') return `“${v}”`;
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  return JSON.stringify(v);
}

const isObject = (v: unknown): v is Data => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What an edit changed, field by field (`data: {before, after}`, changed fields only). Meta is
 * compared key by key, so one changed pair shows as that pair, not as two whole objects.
 */
export function eventChanges(e: Pick<EventRecord, 'data'>): Change[] {
  const d = (e.data ?? {}) as Data;
  if (!isObject(d.before) || !isObject(d.after)) return [];
  const before = d.before;
  const after = d.after;
  const out: Change[] = [];
  for (const field of [...new Set([...Object.keys(before), ...Object.keys(after)])]) {
    const b = before[field];
    const a = after[field];
    if (field === 'meta' && (isObject(b) || b == null) && (isObject(a) || a == null)) {
      const bm = (b ?? {}) as Data;
      const am = (a ?? {}) as Data;
      for (const k of [...new Set([...Object.keys(bm), ...Object.keys(am)])])
        if (JSON.stringify(bm[k]) !== JSON.stringify(am[k]))
          out.push({ field: `meta.${k}`, before: changeValue(bm[k]), after: changeValue(am[k]) });
      continue;
    }
    out.push({ field, before: changeValue(b), after: changeValue(a) });
  }
  return out;
}

/** Who made a change, as the record names them: their name, and what kind of actor that is. */
export const ACTOR_KINDS: Record<string, string> = {
  app: 'application',
  user: 'user',
  owner_key: 'workspace key',
  admin: 'administrator',
  admin_key: 'admin key',
  system: 'server',
};
