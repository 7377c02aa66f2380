// A file row as the API shows it (docs/api.md, Files).
import type { File } from '../../db/generated/client';
import type { CreatedBy, FileAtUrl, FileRecord, RestoredFrom } from '../../schemas/files';
import { presentFacts } from './file-facts';
import { fileUrl, type UrlSigner } from './file-url';
import type { PreviousVersion } from './list-previous-versions';

export function presentFile(f: File, signer: UrlSigner, previous?: PreviousVersion[]): FileRecord {
  return {
    id: f.id,
    entry_id: f.entryId,
    name: f.name,
    category: f.category as FileRecord['category'],
    ...(f.key !== null ? { key: f.key } : {}),
    desc: f.desc,
    mime: f.mime,
    size: Number(f.size),
    hash: f.hash,
    url: fileUrl(signer, f),
    stored: f.stored,
    embeddable: f.embeddable,
    private: f.private,
    meta: f.meta as Record<string, string>,
    facts: presentFacts(f.facts),
    ...history(f),
    retention: presentRetention(f),
    legal_hold: f.legalHold,
    ...(previous ? { previous: previous.map(presentPrevious) } : {}),
    created_at: f.createdAt.toISOString(),
  };
}

/**
 * A file as its url shows it to whoever holds the url without the owner's credentials: what
 * `GET {url}` already tells (bytes' name, type, length and sha256), nothing of its history.
 */
export function presentFileAtUrl(f: File, signer: UrlSigner): FileAtUrl {
  return { id: f.id, name: f.name, mime: f.mime, size: Number(f.size), hash: f.hash, url: fileUrl(signer, f), stored: f.stored };
}

/** An earlier version as a file's `previous` lists it. */
export function presentPrevious(p: PreviousVersion): NonNullable<FileRecord['previous']>[number] {
  return {
    id: p.id,
    name: p.name,
    hash: p.hash,
    size: Number(p.size),
    desc: p.desc,
    ...history(p),
    retention: presentRetention(p),
    legal_hold: p.legalHold,
    created_at: p.createdAt.toISOString(),
  };
}

/** What tells a version's story: its number, author and the version it restored. */
function history(v: Pick<File, 'version' | 'createdBy' | 'restoredFrom'>) {
  return {
    version: v.version,
    created_by: (v.createdBy as CreatedBy | null) ?? null,
    restored_from: (v.restoredFrom as RestoredFrom | null) ?? null,
  };
}

/** A version's retention (docs/api.md, Retention): null when it has none. */
export function presentRetention(f: Pick<File, 'retainUntil' | 'retentionMode'>): FileRecord['retention'] {
  if (!f.retainUntil || !f.retentionMode) return null;
  return { mode: f.retentionMode as 'governance' | 'compliance', retain_until: f.retainUntil.toISOString() };
}
