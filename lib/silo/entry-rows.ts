// An entry row as the list and one-entry reads fetch it: the entry's columns and its file count,
// in one statement (the count is a correlated subquery, no extra round trip).
import type { Db, Tx } from '../db/client';
import { Prisma, type Entry } from '../db/generated/client';
import type { Period } from '../db/scope';

export type EntryRow = Entry & { fileCount: number; facts: unknown };

/**
 * file_count: the entry's files as its attachments show them (lib/silo/files/list-files.ts): each
 * slot with a current version, or with a placeholder waiting for its bytes, counts once.
 */
export const FILE_COUNT = Prisma.sql`(SELECT count(*)::int FROM file_slots s WHERE s.entry_id = e.id
  AND (s.current_id IS NOT NULL OR EXISTS (SELECT 1 FROM files p WHERE p.slot_id = s.id AND NOT p.stored)))`;

/**
 * An entry's facts (docs/api.md, Invoice facts): of its current versions that have facts, the one
 * stored last (an entry usually holds one invoice's XML beside its PDF; a newer invoice replaces it).
 * A sort of the entry's few current versions per row, never of the page.
 */
export const ENTRY_FACTS = Prisma.sql`(SELECT v.facts FROM file_slots s JOIN files v ON v.id = s.current_id
  WHERE s.entry_id = e.id AND v.facts IS NOT NULL ORDER BY v.stored_at DESC, v.id DESC LIMIT 1)`;

/** The select list of an entry row from `entries e`. */
export const ENTRY_COLUMNS = Prisma.sql`e.id::text AS "id", e.owner_id::text AS "ownerId", e.sandbox, e.key, e.folder, e.name,
  e.meta, e.legal_hold AS "legalHold", e.legal_hold_reason AS "legalHoldReason", e.created_at AS "createdAt", e.updated_at AS "updatedAt",
  ${FILE_COUNT} AS "fileCount", ${ENTRY_FACTS} AS "facts"`;

/** SQL: the files row `f` is a version stored in the period (as lib/silo/period.ts's storedIn). */
export const storedInSql = (p: Period, f: Prisma.Sql) =>
  Prisma.sql`${f}.stored AND coalesce(${f}.stored_at, ${f}.created_at) >= ${p.start} AND coalesce(${f}.stored_at, ${f}.created_at) < ${p.end}`;

/**
 * The select list for an auditor's key: file_count counts the files with a version stored in its
 * period, and the facts are those of the version with facts stored last in it.
 */
export const periodEntryColumns = (
  p: Period,
) => Prisma.sql`e.id::text AS "id", e.owner_id::text AS "ownerId", e.sandbox, e.key, e.folder, e.name,
  e.meta, e.legal_hold AS "legalHold", e.legal_hold_reason AS "legalHoldReason", e.created_at AS "createdAt", e.updated_at AS "updatedAt",
  (SELECT count(DISTINCT c.slot_id)::int FROM files c WHERE c.entry_id = e.id AND ${storedInSql(p, Prisma.sql`c`)}) AS "fileCount",
  (SELECT v.facts FROM files v WHERE v.entry_id = e.id AND v.facts IS NOT NULL AND ${storedInSql(p, Prisma.sql`v`)}
    ORDER BY v.stored_at DESC, v.id DESC LIMIT 1) AS "facts"`;

/** How many files an entry shows, and its facts (for the records written by PUT and PATCH). */
export async function countFiles(db: Db | Tx, entryId: string): Promise<{ fileCount: number; facts: unknown }> {
  const [row] = await db.$queryRaw<{ n: number; facts: unknown }[]>`
    SELECT ${FILE_COUNT} AS n, ${ENTRY_FACTS} AS facts FROM (SELECT ${entryId}::uuid AS id) e`;
  return { fileCount: row?.n ?? 0, facts: row?.facts ?? null };
}

/** The facts of an entry's current files as listFiles reads them: the rule of ENTRY_FACTS. */
export function factsOfCurrent(files: { facts: unknown; storedAt: Date | null; id: string; stored: boolean }[]): unknown {
  let best: (typeof files)[number] | undefined;
  for (const f of files) {
    if (!f.stored || f.facts === null || f.storedAt === null) continue;
    const later = !best || f.storedAt > (best.storedAt as Date) || (+f.storedAt === +(best.storedAt as Date) && f.id > best.id);
    if (later) best = f;
  }
  return best?.facts ?? null;
}
