// POST and PUT of a file (docs/api.md, Files): inline bytes, or a placeholder awaiting them.
// decideCreation picks the path once (small inline bytes kept in the database by the record's own
// statement, larger ones put in the blob store then recorded, or a placeholder); one function per
// path makes the file.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../../db/client';
import type { Entry, File } from '../../db/generated/client';
import { ApiError, isApiError, notFound } from '../../errors';
import { must } from '../../must';
import type { Scope } from '../../db/scope';
import type { BlobLock, BlobStore } from '../../storage/blob-store';
import type { CreatedBy, FileInput, FileLimits } from '../../schemas/files';
import { findEntry } from '../find-entry';
import { UNIQUE, isEntryGone, isForeignKeyViolation, isUniqueViolation, sameJson } from '../../db/db-errors';
import { readInvoiceFacts } from '../../invoices/read-facts';
import { decodeInline } from './inline-data';
import { withPlacedBlob, withRecordedBlob } from './blobs';
import { insertCurrent, insertPlaceholder, makeCurrent, type NewStoredFile, type VersionEvent } from './replace-file';
import { lockForCompletion } from './complete-placeholder';
import type { MadeVersion } from './slot-history';
import { withUploadLease } from './upload-lock';
import { askedRetention } from '../retention/version-retention';
import { lockVersionBlob, placementLock, retentionFloor } from '../retention/blob-locks';
import { versionStored } from '../../metrics.mjs';

export interface CreateFileOptions {
  db: Db;
  store: BlobStore;
  scope: Scope;
  entryId: string;
  /** the caller's id (PUT); absent for POST */
  id?: string;
  input: FileInput;
  limits: FileLimits;
  /** who makes it: its versions' created_by */
  actor?: CreatedBy | null;
}

/** The options with what the create asks of its version's retention, checked (askedRetention). */
type Creating = CreateFileOptions & { retention: Awaited<ReturnType<typeof askedRetention>> };

interface Content {
  hash: string;
  size: number;
  mime: string;
}

export interface CreatedFile {
  file: File;
  created: boolean;
  /** a version one committed statement made current, with its slot's rev: its history may be cached */
  made?: MadeVersion;
}

export async function createFile(o: CreateFileOptions): Promise<CreatedFile> {
  const entry = await findEntry({ db: o.db, scope: o.scope, id: o.entryId });
  const creation = decideCreation(o.input, o.limits);
  const c: Creating = { ...o, retention: await askedRetention(o.db, entry, o.input.category, o.input) };
  if (o.id) {
    const existing = await o.db.file.findUnique({ where: { id: o.id } });
    if (existing) return { file: await repeated(c, existing, creation), created: false };
  }
  const id = o.id ?? randomUUID();
  try {
    const made = await create(c, entry, id, creation);
    // Committed: a version stored inline counts for the metrics (a placeholder, when its bytes come).
    if (made.file.stored) versionStored(made.file.size);
    await lockVersionBlob(o.db, o.store, made.file);
    return { ...made, created: true };
  } catch (err) {
    // The entry deleted since it was found: whichever statement met it failed whole.
    if (isEntryGone(err)) throw notFound('Entry not found');
    // Two PUTs of one id at once: the loser answers as a repeat of the winner (200, or 409 for
    // other values). insertCurrent's one statement fails on the id, or first on the slot's
    // current version naming it: whichever, the id now exists.
    if (o.id && (isUniqueViolation(err, UNIQUE.fileId) || (await o.db.file.findUnique({ where: { id: o.id } })))) return createFile(o);
    throw err;
  }
}

/** Inline bytes, decoded and checked against what the request says of them. */
type InlineContent = Content & { bytes: Buffer };

/** How a new file is made, decided once from the request and the limits. */
export type Creation =
  /** bytes up to smallBlobBytes: kept in the database, by the record's own statement */
  | { path: 'inline-small'; content: InlineContent }
  /** larger bytes: put in the blob store, then recorded */
  | { path: 'inline-large'; content: InlineContent }
  /** no bytes yet: a record awaiting its upload */
  | { path: 'placeholder'; content: Content };

/** The request's content (400/413/422 on bad input) and the path that makes its file. */
export function decideCreation(input: FileInput, limits: FileLimits): Creation {
  if (input.data === undefined) return { path: 'placeholder', content: placeholderContent(input, limits) };
  const content = inlineContent(input, limits);
  return { path: content.size <= limits.smallBlobBytes ? 'inline-small' : 'inline-large', content };
}

function create(o: Creating, entry: Entry, id: string, c: Creation): Promise<Omit<CreatedFile, 'created'>> {
  switch (c.path) {
    case 'inline-small':
      return storeSmallInline(o, entry, id, c.content);
    case 'inline-large':
      return storeLargeInline(o, entry, id, c.content);
    case 'placeholder':
      return createPlaceholder(o, entry, id, c.content);
  }
}

function placeholderContent(input: FileInput, limits: FileLimits): Content {
  const size = must(input.size, 'size');
  if (size > limits.maxFileBytes)
    throw new ApiError('too_large', `A file is limited to ${limits.maxFileBytes} bytes`, { fields: { size: 'is over the limit' } });
  return { hash: must(input.sha256, 'sha256'), size, mime: must(input.mime, 'mime') };
}

function inlineContent(input: FileInput, limits: FileLimits): InlineContent {
  const bytes = decodeInline(must(input.data, 'data'), limits.maxInlineBytes);
  const hash = createHash('sha256').update(bytes).digest('hex');
  if (input.size !== undefined && input.size !== bytes.length)
    throw new ApiError('size_mismatch', `data holds ${bytes.length} bytes, not ${input.size}`, { fields: { size: 'does not match data' } });
  if (input.sha256 !== undefined && input.sha256 !== hash)
    throw new ApiError('checksum_mismatch', 'sha256 does not match data', { fields: { sha256: 'does not match data' } });
  return { hash, size: bytes.length, mime: input.mime ?? 'application/octet-stream', bytes };
}

function rowFields(input: FileInput, content: Content) {
  return {
    name: input.name,
    category: input.category,
    key: input.key ?? null,
    desc: input.desc,
    mime: content.mime,
    size: BigInt(content.size),
    hash: content.hash,
    embeddable: input.embeddable,
    private: input.private,
    meta: input.meta,
  };
}

/** The row of a new version (or placeholder) `o` makes in `entry`; inline bytes' facts read from them. */
const newRow = (o: Creating, entry: Entry, id: string, content: Content | InlineContent): NewStoredFile => ({
  id,
  entryId: entry.id,
  urlNonce: nonce(),
  createdBy: o.actor ?? null,
  restoredFrom: null,
  ...o.retention,
  facts: 'bytes' in content ? readInvoiceFacts(content.bytes, content.mime) : null,
  ...rowFields(o.input, content),
});

/** The event log's view of a version `o` makes in `entry`: its actor, in the entry's chain. */
const versionEvent = (o: CreateFileOptions, entry: Entry): VersionEvent => ({
  actor: o.actor ?? null,
  chain: { ownerId: entry.ownerId, sandbox: entry.sandbox },
});

/**
 * A small blob: file, version and bytes in one autocommit statement, the bytes kept in the
 * database (small-blobs.ts). One round trip and one commit on purpose (measured: a blob file's write,
 * two fsyncs and rename were the cost of a new small file, not the look-ups): no
 * transaction around it, and nothing of the blob store.
 */
async function storeSmallInline(o: Creating, entry: Entry, id: string, content: InlineContent): Promise<Omit<CreatedFile, 'created'>> {
  const made = await insertCurrent(o.db, newRow(o, entry, id, content), versionEvent(o, entry), content.bytes).catch((err) => {
    if (isForeignKeyViolation(err)) throw notFound('Entry not found'); // deleted since it was found
    throw err;
  });
  const { slotRev, ...file } = made;
  // Committed (no transaction around it): the history before it may come from the cache.
  return { file, made: { slotId: file.slotId, rev: slotRev, version: { ...file, version: must(file.version, 'a stored version') } } };
}

/**
 * Larger inline bytes: put in the blob store (locked, on a store with locks, when the version is
 * retained: placementLock), then recorded with the version (placeInline), which keeps at least that.
 */
async function storeLargeInline(o: Creating, entry: Entry, id: string, content: InlineContent): Promise<Omit<CreatedFile, 'created'>> {
  const lock = await placementLock(o.db, o.store, { entryId: entry.id, category: o.input.category, ...o.retention });
  const row = newRow({ ...o, retention: retentionFloor(lock, o.retention) }, entry, id, content);
  const file = await placeInline(
    o,
    content,
    async (tx) => {
      const { slotRev: _, ...file } = await insertCurrent(tx, row, versionEvent(o, entry));
      return file;
    },
    lock,
  );
  return { file };
}

/**
 * Inline bytes are put in place first, then recorded as `refer` points a file at them, in a
 * transaction that does not wait on the disk. Should they have been freed in between, they take
 * the uploads' path: placed under the lock. They are put even when identical bytes are stored
 * already (the store keeps one copy): skipping the write would let any workspace time whether
 * another holds given bytes (SECURITY.md, dedup-timing.slow.test.ts).
 */
async function placeInline(
  o: CreateFileOptions,
  content: InlineContent,
  refer: Parameters<typeof withPlacedBlob<File>>[3],
  lock?: BlobLock,
): Promise<File> {
  const blob = { hash: content.hash, size: content.size };
  await o.store.put(blob.hash, content.bytes, { lock });
  const file = await withRecordedBlob(o.db, o.store, blob, refer);
  if (file !== false) return file;
  return holdAndPlace(o, content, (uploadId) => withPlacedBlob(o.db, o.store, { uploadId, ...blob }, refer, undefined, { lock }));
}

/** Writes inline bytes to a held copy, as an upload's arrive, and runs `place` on it. */
async function holdAndPlace<T>(o: CreateFileOptions, content: InlineContent, place: (uploadId: string) => Promise<T>): Promise<T> {
  const uploadId = `inline-${randomUUID()}`;
  await o.store.receive(uploadId, [content.bytes], { offset: 0, maxBytes: content.size, expectedHash: content.hash });
  try {
    return await place(uploadId);
  } finally {
    await o.store.dropHeld(uploadId);
  }
}

/** No bytes yet: the placeholder, in its slot, awaiting an upload to its url within the upload window. */
async function createPlaceholder(o: Creating, entry: Entry, id: string, content: Content): Promise<Omit<CreatedFile, 'created'>> {
  const row = { ...newRow(o, entry, id, content), uploadExpiresAt: uploadExpiry(o.limits) };
  const file = await insertPlaceholder(o.db, row, versionEvent(o, entry)).catch((err) => {
    if (isForeignKeyViolation(err)) throw notFound('Entry not found'); // deleted since it was found
    throw err;
  });
  return { file };
}

/** The same id again: the same request answers 200 (a placeholder with a fresh upload window); other values 409. */
async function repeated(o: Creating, f: File, creation: Creation): Promise<File> {
  const { content } = creation;
  const want = { entryId: o.entryId, ...rowFields(o.input, content) };
  const same =
    f.entryId === want.entryId &&
    f.name === want.name &&
    f.category === want.category &&
    f.key === want.key &&
    f.desc === want.desc &&
    f.mime === want.mime &&
    f.size === want.size &&
    f.hash === want.hash &&
    f.embeddable === want.embeddable &&
    f.private === want.private &&
    sameJson(f.meta, want.meta);
  if (!same) throw new ApiError('conflict', `The file id ${f.id} is already used with other values`);
  if (f.stored) return f;
  if (creation.path !== 'placeholder') {
    const file = await completeWithInline(o, f, creation.content);
    await lockVersionBlob(o.db, o.store, file);
    return file;
  }
  return o.db.file.update({ where: { id: f.id }, data: { uploadExpiresAt: uploadExpiry(o.limits) } });
}

/**
 * A placeholder repeated with its bytes inline: store them, as an upload to its url would, under
 * the same lease, so an upload running meanwhile wins (this answers 409 upload_in_progress) or
 * finds the file stored; the bytes of the two never mix.
 */
async function completeWithInline(o: Creating, f: File, content: InlineContent): Promise<File> {
  const facts = readInvoiceFacts(content.bytes, content.mime);
  return withUploadLease(o.db, f.id, INLINE_LEASE_IDLE_MS, async (lease) => {
    if (lease.file.stored) return lease.file;
    const lock = await placementLock(o.db, o.store, f);
    const file = await placeInline(
      o,
      content,
      async (tx) => {
        await lockForCompletion(tx, f, lease);
        // The placeholder's author made this version, whoever repeats its request with the bytes.
        await makeCurrent(tx, f, { actor: (f.createdBy as CreatedBy | null) ?? o.actor ?? null }, facts, lock);
        return tx.file.findUniqueOrThrow({ where: { id: f.id } });
      },
      lock,
    ).catch(async (err) => {
      if (isApiError(err) && err.key === 'not_found') await o.store.dropHeld(f.id); // deleted meanwhile
      throw err;
    });
    versionStored(file.size);
    // Bytes an earlier upload left held are of no use any more; the lease makes them ours to drop.
    await o.store.dropHeld(f.id);
    return file;
  });
}

/** An inline completion holds its lease for one short transaction; this only sizes the lease. */
const INLINE_LEASE_IDLE_MS = 60_000;

export const nonce = () => randomBytes(12).toString('base64url');
const uploadExpiry = (l: FileLimits) => new Date(Date.now() + l.uploadTtlSeconds * 1000);
