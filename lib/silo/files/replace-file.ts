// Replacement: how a version becomes the current file of its identity (docs/api.md, Versions).
// A slot is one file identity in an entry (category + key or name); every version is its own row,
// the slot's current_id points at the current one, and seq numbers the versions. Making a version
// current is one UPDATE (or upsert) of the slot row, so racing replacements serialise on that row
// and every one of them gets its own version number: none is lost.
import { randomUUID } from 'node:crypto';
import type { Tx } from '../../db/client';
import { queryDirect } from '../../db/direct-query';
import { ApiError } from '../../errors';
import { Prisma, type File } from '../../db/generated/client';
import { type AlsoEvent, appendEventSql, type EventChain, fileEventData } from '../../events/append-event';
import { type EventActor, eventActorFor } from '../../events/catalogue';
import { noteAppended } from '../../events/witness';
import type { InvoiceFacts } from '../../invoices/read-facts';
import type { BlobLock } from '../../storage/blob-store';
import { keepBytesSql } from '../../storage/database-store';
import { hashLock } from './blobs';
import { FACT_COLUMN_NAMES, factColumns, factValuesSql, setFactsSql } from './file-facts';

class AlreadyStored extends Error {}

/**
 * What the event log records of a version as it is made: who made it and in which chain (the
 * entry's workspace and environment; ownerId null finds them from the entry). `restoredFrom`: a
 * restore (file.restored), else the bytes of an upload or inline data (file.stored).
 */
export interface VersionEvent {
  actor: EventActor | null;
  chain?: EventChain;
  restoredFrom?: { id: string; version: number };
}

const chainOf = (e: VersionEvent): EventChain => e.chain ?? { ownerId: null };

/** The records of a version: a row of files that its statement returns names the entry, file and version. */
const ofRow = (e: VersionEvent) => ({
  ...chainOf(e),
  actor: eventActorFor(e.actor),
  entryId: Prisma.raw('entry_id'),
  fileId: Prisma.raw('id'),
});

/** file.stored (or file.restored) of a version made current. */
const madeCurrent = (e: VersionEvent): AlsoEvent => ({
  type: e.restoredFrom ? 'file.restored' : 'file.stored',
  version: Prisma.raw('version'),
  data: fileEventData({ from: e.restoredFrom }),
});

/** file.created of a version or a placeholder. */
const created = (placeholder: boolean): AlsoEvent => ({ type: 'file.created', data: fileEventData({ placeholder }) });

/** The records of a version made current, as an expression of the files row its statement returns. */
const versionEventSql = (e: VersionEvent) => appendEventSql({ ...ofRow(e), ...madeCurrent(e) });

/**
 * Marks a placeholder stored and makes it the current version of its slot, in the caller's
 * transaction, with its file.stored (or file.restored) record in the last statement. `facts`: what
 * its bytes say (undefined: the row's own, as a restore copied them).
 */
export async function makeCurrent(
  tx: Tx,
  file: { id: string; slotId: string },
  event: VersionEvent,
  facts?: InvoiceFacts | null,
  /** the lock its bytes were placed with (blob-locks.ts, placementLock): the version keeps at least that */
  placed?: BlobLock,
): Promise<void> {
  const setFacts = facts === undefined ? Prisma.empty : Prisma.sql`, ${setFactsSql(facts)}`;
  const setFloor = placed?.retainUntil
    ? Prisma.sql`, retain_until = greatest(retain_until, ${placed.retainUntil}::timestamptz),
      retention_mode = CASE WHEN retention_mode = 'compliance' OR ${placed.mode}::text = 'compliance' THEN 'compliance' ELSE 'governance' END`
    : Prisma.empty;
  const marked = await tx.$executeRaw`
    UPDATE files SET stored = true, stored_at = now(), upload_expires_at = NULL ${setFacts} ${setFloor} WHERE id = ${file.id}::uuid AND stored = false`;
  if (marked !== 1) throw new AlreadyStored();
  const rows = await tx.$queryRaw<{ seq: number }[]>`
    UPDATE file_slots SET seq = seq + 1, current_id = ${file.id}::uuid WHERE id = ${file.slotId}::uuid RETURNING seq`;
  if (!rows.length) throw new ApiError('not_found', 'The file was deleted');
  const [made] = await tx.$queryRaw<{ appended: unknown }[]>`
    UPDATE files SET version = ${rows[0].seq} WHERE id = ${file.id}::uuid RETURNING ${versionEventSql(event)} AS appended`;
  noteAppended(made.appended);
}

/** A new stored version's row, as insertCurrent takes it. */
export type NewStoredFile = Pick<
  File,
  'id' | 'entryId' | 'name' | 'category' | 'key' | 'desc' | 'mime' | 'size' | 'hash' | 'embeddable' | 'private' | 'urlNonce'
> & {
  /** what the create asked (retain_until, retention_mode): the database adds the rules' (prisma/sql/retention.sql) */
  retainUntil?: Date | null;
  retentionMode?: string | null;
  meta: unknown;
  createdBy: unknown;
  restoredFrom: unknown;
  /** an invoice's facts read from the bytes (a placeholder has none yet) */
  facts?: InvoiceFacts | null;
};

/**
 * Inserts a stored file as the current version of its slot (category + key or name; made if new)
 * in one statement, in the caller's transaction: what a slot upsert, a create and makeCurrent do in
 * five round trips. The slot's upsert locks its row as makeCurrent's UPDATE does, so racing
 * versions still serialise on it and each gets its own number. current_id has no foreign key,
 * so the slot may name the file the same statement inserts.
 *
 * With `bytes` (a small blob, small-blobs.ts) the statement also keeps them in the blob's row, by
 * the store's own SQL (keepBytesSql, lib/storage/database-store.ts) under the hash's lock
 * (blobs.ts), so it needs no transaction around it: a free of the same hash either ran before it
 * (and this inserts the row anew, bytes and all) or comes after its commit and sees the file. A row
 * of the same bytes gets them written again, whether it held them already or they are in the blob
 * store: the same work either way, so no workspace can time whether another stored these bytes
 * (SECURITY.md); one row is kept.
 *
 * It answers the slot's rev as the statement left it too: with the version's number (the slot's
 * seq), it dates the history before the version (slot-history.ts).
 */
export async function insertCurrent(
  tx: Tx,
  f: NewStoredFile,
  event: VersionEvent,
  bytes?: Uint8Array,
): Promise<File & { slotRev: string }> {
  const blob = bytes
    ? Prisma.sql`locked AS (SELECT ${hashLock(f.hash)}), blob AS (${keepBytesSql(f.hash, bytes, 'locked')}),`
    : Prisma.empty;
  const rows = await queryDirect<
    Pick<
      File,
      | 'slotId'
      | 'version'
      | 'linkNonce'
      | 'meta'
      | 'createdBy'
      | 'restoredFrom'
      | 'createdAt'
      | 'storedAt'
      | 'retainUntil'
      | 'retentionMode'
      | 'legalHold'
      | 'ownerId'
      | 'sandbox'
      | 'entryCreatedAt'
    > & { slotRev: string }
  >(
    tx,
    Prisma.sql`
    WITH ${blob} slot AS (
      INSERT INTO file_slots (id, entry_id, category, key, seq, current_id)
      VALUES (${randomUUID()}::uuid, ${f.entryId}::uuid, ${f.category}, ${f.key ?? f.name}, 1, ${f.id}::uuid)
      ON CONFLICT (entry_id, category, key) DO UPDATE SET seq = file_slots.seq + 1, current_id = EXCLUDED.current_id
      RETURNING id, seq, rev)
    INSERT INTO files (id, entry_id, slot_id, name, category, key, "desc", mime, size, hash, stored, embeddable, private, meta, version, url_nonce, stored_at,
      created_by, restored_from, retain_until, retention_mode, ${FACT_COLUMN_NAMES})
    SELECT ${f.id}::uuid, ${f.entryId}::uuid, slot.id, ${f.name}, ${f.category}, ${f.key}, ${f.desc}, ${f.mime}, ${f.size}, ${f.hash}, true,
      ${f.embeddable}, ${f.private}, ${JSON.stringify(f.meta ?? {})}::json, slot.seq, ${f.urlNonce}, now(),
      ${jsonOrNull(f.createdBy)}::jsonb, ${jsonOrNull(f.restoredFrom)}::jsonb, ${f.retainUntil ?? null}::timestamptz, ${f.retentionMode ?? null}::text,
      ${factValuesSql(f.facts ?? null)}
    FROM slot
    RETURNING ${MADE_COLUMNS}, (SELECT rev FROM slot)::text AS "slotRev", ${appendEventSql({ ...ofRow(event), ...created(false) }, madeCurrent(event))} AS "appended"`,
  );
  const { appended, ...made } = rows[0] as (typeof rows)[0] & { appended: unknown };
  noteAppended(appended);
  // What the statement made or normalised comes back (jsonb keeps its own key order); the rest is what was sent.
  return {
    ...made,
    id: f.id,
    entryId: f.entryId,
    name: f.name,
    category: f.category,
    key: f.key,
    desc: f.desc,
    mime: f.mime,
    size: f.size,
    hash: f.hash,
    stored: true,
    embeddable: f.embeddable,
    private: f.private,
    urlNonce: f.urlNonce,
    uploadExpiresAt: null,
    ...factColumns(f.facts ?? null),
    facts: f.facts ?? null,
  };
}

/** The columns of a stored row insertCurrent does not know before: a short row is cheaper to read back. */
const MADE_COLUMNS = Prisma.raw(
  `slot_id::text AS "slotId", version, link_nonce AS "linkNonce", meta, created_by AS "createdBy", restored_from AS "restoredFrom",
   created_at AS "createdAt", stored_at AS "storedAt", retain_until AS "retainUntil", retention_mode AS "retentionMode",
   legal_hold AS "legalHold", owner_id::text AS "ownerId", sandbox, entry_created_at AS "entryCreatedAt"`,
);

/**
 * Inserts a placeholder in its slot (made if new) in one statement: no delete of the slot's last
 * version can remove the slot between making it and pointing the placeholder at it. An entry
 * deleted meanwhile fails the statement on the foreign key (isForeignKeyViolation).
 */
export async function insertPlaceholder(tx: Tx, f: NewStoredFile & { uploadExpiresAt: Date }, event: VersionEvent): Promise<File> {
  const rows = await tx.$queryRaw<File[]>`
    WITH slot AS (
      INSERT INTO file_slots (id, entry_id, category, key)
      VALUES (${randomUUID()}::uuid, ${f.entryId}::uuid, ${f.category}, ${f.key ?? f.name})
      ON CONFLICT (entry_id, category, key) DO UPDATE SET key = EXCLUDED.key
      RETURNING id)
    INSERT INTO files (id, entry_id, slot_id, name, category, key, "desc", mime, size, hash, stored, embeddable, private, meta, url_nonce,
      upload_expires_at, created_by, retain_until, retention_mode)
    SELECT ${f.id}::uuid, ${f.entryId}::uuid, slot.id, ${f.name}, ${f.category}, ${f.key}, ${f.desc}, ${f.mime}, ${f.size}, ${f.hash}, false,
      ${f.embeddable}, ${f.private}, ${JSON.stringify(f.meta ?? {})}::json, ${f.urlNonce}, ${f.uploadExpiresAt},
      ${jsonOrNull(f.createdBy)}::jsonb, ${f.retainUntil ?? null}::timestamptz, ${f.retentionMode ?? null}::text
    FROM slot
    RETURNING ${FILE_COLUMNS}, ${appendEventSql({ ...ofRow(event), ...created(true) })} AS "appended"`;
  const { appended, ...file } = rows[0] as File & { appended: unknown };
  noteAppended(appended);
  return file;
}

/** The columns of files under the names of Prisma's File. */
const FILE_COLUMNS = Prisma.raw(
  `id::text, entry_id::text AS "entryId", slot_id::text AS "slotId", name, category, key, "desc", mime, size, hash, stored, embeddable,
   private, meta, version, url_nonce AS "urlNonce", link_nonce AS "linkNonce", created_by AS "createdBy",
   restored_from AS "restoredFrom", upload_expires_at AS "uploadExpiresAt", created_at AS "createdAt", stored_at AS "storedAt",
   retain_until AS "retainUntil", retention_mode AS "retentionMode", legal_hold AS "legalHold",
   facts, fact_seller_vat AS "factSellerVat", fact_buyer_vat AS "factBuyerVat", fact_number AS "factNumber",
   fact_issue_date AS "factIssueDate", fact_currency AS "factCurrency", owner_id::text AS "ownerId", sandbox,
   entry_created_at AS "entryCreatedAt"`,
);

/**
 * Bytes as a text parameter the database decodes: the embedded database's driver would spell a
 * bytea parameter out as hex one byte at a time in JavaScript (database-store.ts reads them back so too).
 */

const jsonOrNull = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));
