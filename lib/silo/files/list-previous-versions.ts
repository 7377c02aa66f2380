// A file's history: the versions before it in its slot.
import type { Tx } from '../../db/client';
import { Prisma, type File } from '../../db/generated/client';

/** What a file's `previous` shows of each earlier version. */
export type PreviousVersion = Pick<
  File,
  | 'id'
  | 'name'
  | 'hash'
  | 'size'
  | 'createdAt'
  | 'version'
  | 'desc'
  | 'createdBy'
  | 'restoredFrom'
  | 'retainUntil'
  | 'retentionMode'
  | 'legalHold'
>;

/** Earlier stored versions of a file, newest first; for a placeholder, every stored version of its slot. */
export async function listPreviousVersions(db: Tx, file: File): Promise<PreviousVersion[]> {
  // Versions count from 1: the first has none before it (most files), and no query is needed.
  if (file.version === 1) return [];
  // One raw statement: a long history is hundreds of rows, and Prisma's per-row work for findMany
  // cost more than the query (bench/small-requests.ts, the replacement case).
  const below = file.version !== null ? Prisma.sql`AND version < ${file.version}` : Prisma.empty;
  return db.$queryRaw<PreviousVersion[]>`
    SELECT id::text, name, hash, size, created_at AS "createdAt", version, "desc", created_by AS "createdBy", restored_from AS "restoredFrom",
      retain_until AS "retainUntil", retention_mode AS "retentionMode", legal_hold AS "legalHold"
    FROM files
    WHERE slot_id = ${file.slotId}::uuid AND stored AND id <> ${file.id}::uuid ${below}
    ORDER BY version DESC`;
}
