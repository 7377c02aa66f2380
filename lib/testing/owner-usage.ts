// For the owner_usage tests: the storage used as the aggregate GET /admin/v1/owners once ran over
// entries and files (before migration owner_usage), computed afresh to hold the counted rows to.
import type { Db } from '../db/client';
import { ownerUsage } from '../access/owner-usage';
import type { OwnerUsage } from '../schemas/access';

/** The old aggregate, both environments: what ownerUsage answered before the table. */
export async function aggregateUsage(db: Db, ownerIds: string[]): Promise<Map<string, OwnerUsage>> {
  const rows = await db.$queryRaw<{ owner_id: string; entries: bigint; files: bigint; bytes: bigint }[]>`
    SELECT e.owner_id::text AS owner_id, count(DISTINCT e.id) AS entries, count(f.id) AS files, coalesce(sum(f.size), 0)::bigint AS bytes
      FROM entries e LEFT JOIN files f ON f.entry_id = e.id AND f.stored
     WHERE e.owner_id = ANY(${ownerIds}::uuid[]) GROUP BY e.owner_id`;
  const usage = new Map<string, OwnerUsage>(ownerIds.map((id) => [id, { entries: 0, files: 0, bytes: 0 }]));
  for (const r of rows) usage.set(r.owner_id, { entries: Number(r.entries), files: Number(r.files), bytes: Number(r.bytes) });
  return usage;
}

/** ownerUsage and the aggregate side by side, for expect(…).toEqual. */
export async function bothUsages(db: Db, ownerIds: string[]) {
  return { counted: Object.fromEntries(await ownerUsage(db, ownerIds)), aggregate: Object.fromEntries(await aggregateUsage(db, ownerIds)) };
}

/**
 * Every (workspace, environment) of the whole database whose summed owner_usage rows differ from
 * counting entries and stored files afresh: none when the triggers kept up.
 */
export const usageDrift = (db: Db) =>
  db.$queryRaw<{ owner_id: string; sandbox: boolean; entries: string; files: string; bytes: string }[]>`
    WITH counted AS (
      SELECT owner_id, sandbox, sum(entries) AS entries, sum(files) AS files, sum(bytes) AS bytes
        FROM owner_usage GROUP BY 1, 2 HAVING sum(entries) <> 0 OR sum(files) <> 0 OR sum(bytes) <> 0),
    fresh AS (
      SELECT e.owner_id, e.sandbox, count(DISTINCT e.id)::numeric AS entries, count(f.id)::numeric AS files,
             coalesce(sum(f.size), 0)::numeric AS bytes
        FROM entries e LEFT JOIN files f ON f.entry_id = e.id AND f.stored GROUP BY 1, 2)
    SELECT owner_id::text, sandbox, entries::text, files::text, bytes::text, 'counted' AS side FROM (TABLE counted EXCEPT TABLE fresh) a
    UNION ALL
    SELECT owner_id::text, sandbox, entries::text, files::text, bytes::text, 'fresh' FROM (TABLE fresh EXCEPT TABLE counted) b`;
