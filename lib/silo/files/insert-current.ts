// A stored version inserted as the current one of its slot in one statement (inline bytes): what
// ensureSlot, a create and makeCurrent do in five round trips.
import { randomUUID } from 'node:crypto';
import type { Tx } from '../../db/client';
import { Prisma, type File } from '../../db/generated/client';

/** A new stored version's row, as insertCurrent takes it. */
export type NewStoredFile = Pick<
  File,
  'id' | 'entryId' | 'name' | 'category' | 'key' | 'desc' | 'mime' | 'size' | 'hash' | 'embeddable' | 'private' | 'urlNonce'
> & {
  meta: unknown;
};

/**
 * Inserts a stored file as the current version of its slot (category + key or name; made if new)
 * in one statement, in the caller's transaction: what ensureSlot, a create and makeCurrent do in
 * five round trips. The slot's upsert locks its row as makeCurrent's UPDATE does, so racing
 * versions still serialise on it and each gets its own number. current_id has no foreign key,
 * so the slot may name the file the same statement inserts.
 */
export async function insertCurrent(tx: Tx, f: NewStoredFile): Promise<File> {
  const rows = await tx.$queryRaw<File[]>`
    WITH slot AS (
      INSERT INTO file_slots (id, entry_id, category, key, seq, current_id)
      VALUES (${randomUUID()}::uuid, ${f.entryId}::uuid, ${f.category}, ${f.key ?? f.name}, 1, ${f.id}::uuid)
      ON CONFLICT (entry_id, category, key) DO UPDATE SET seq = file_slots.seq + 1, current_id = EXCLUDED.current_id
      RETURNING id, seq)
    INSERT INTO files (id, entry_id, slot_id, name, category, key, "desc", mime, size, hash, stored, embeddable, private, meta, version, url_nonce, stored_at)
    SELECT ${f.id}::uuid, ${f.entryId}::uuid, slot.id, ${f.name}, ${f.category}, ${f.key}, ${f.desc}, ${f.mime}, ${f.size}, ${f.hash}, true,
      ${f.embeddable}, ${f.private}, ${JSON.stringify(f.meta ?? {})}::jsonb, slot.seq, ${f.urlNonce}, now()
    FROM slot
    RETURNING ${FILE_COLUMNS}`;
  return rows[0];
}

/** The columns of files under the names of Prisma's File. */
const FILE_COLUMNS = Prisma.raw(
  `id::text, entry_id::text AS "entryId", slot_id::text AS "slotId", name, category, key, "desc", mime, size, hash, stored, embeddable,
   private, meta, version, url_nonce AS "urlNonce", upload_expires_at AS "uploadExpiresAt", created_at AS "createdAt", stored_at AS "storedAt"`,
);
