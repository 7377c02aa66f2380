// An entry row as the list and one-entry reads fetch it: the entry's columns and its file count,
// in one statement (the count is a correlated subquery, no extra round trip).
import type { Db, Tx } from '../db/client';
import { Prisma, type Entry } from '../db/generated/client';
import type { Period } from '../db/scope';

export type EntryRow = Entry & { fileCount: number };

/**
 * file_count: the entry's files as its attachments show them (lib/silo/files/list-files.ts): each
 * slot with a current version, or with a placeholder waiting for its bytes, counts once.
 */
export const FILE_COUNT = Prisma.sql`(SELECT count(*)::int FROM file_slots s WHERE s.entry_id = e.id
  AND (s.current_id IS NOT NULL OR EXISTS (SELECT 1 FROM files p WHERE p.slot_id = s.id AND NOT p.stored)))`;

/** The select list of an entry row from `entries e`. */
export const ENTRY_COLUMNS = Prisma.sql`e.id::text AS "id", e.owner_id::text AS "ownerId", e.sandbox, e.key, e.folder, e.name,
  e.meta, e.legal_hold AS "legalHold", e.legal_hold_reason AS "legalHoldReason", e.created_at AS "createdAt", e.updated_at AS "updatedAt",
  ${FILE_COUNT} AS "fileCount"`;

/** SQL: the files row `f` is a version stored in the period (as lib/silo/period.ts's storedIn). */
export const storedInSql = (p: Period, f: Prisma.Sql) =>
  Prisma.sql`${f}.stored AND coalesce(${f}.stored_at, ${f}.created_at) >= ${p.start} AND coalesce(${f}.stored_at, ${f}.created_at) < ${p.end}`;

/** The select list for an auditor's key: file_count counts the files with a version stored in its period. */
export const periodEntryColumns = (
  p: Period,
) => Prisma.sql`e.id::text AS "id", e.owner_id::text AS "ownerId", e.sandbox, e.key, e.folder, e.name,
  e.meta, e.created_at AS "createdAt", e.updated_at AS "updatedAt",
  (SELECT count(DISTINCT c.slot_id)::int FROM files c WHERE c.entry_id = e.id AND ${storedInSql(p, Prisma.sql`c`)}) AS "fileCount"`;

/** How many files an entry shows (for the records written by POST, PUT and PATCH). */
export async function countFiles(db: Db | Tx, entryId: string): Promise<number> {
  const [row] = await db.$queryRaw<{ n: number }[]>`SELECT ${FILE_COUNT} AS n FROM (SELECT ${entryId}::uuid AS id) e`;
  return row?.n ?? 0;
}
