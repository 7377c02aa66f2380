// The storage a workspace uses, for GET /admin/v1/owners(/{id}): its entries, its stored file
// versions and the sum of their sizes, both environments. Logical bytes: identical content is
// stored once, so the disk may hold less.
import type { Db } from '../db/client';
import type { OwnerUsage } from '../schemas/access';

interface UsageRow {
  owner_id: string;
  entries: bigint;
  files: bigint;
  bytes: bigint;
}

const NONE: OwnerUsage = { entries: 0, files: 0, bytes: 0 };

/** One aggregate statement for a page of owners (not one per owner). */
export async function ownerUsage(db: Db, ownerIds: string[]): Promise<Map<string, OwnerUsage>> {
  const usage = new Map<string, OwnerUsage>(ownerIds.map((id) => [id, NONE]));
  if (ownerIds.length === 0) return usage;
  const rows = await db.$queryRaw<UsageRow[]>`
    SELECT e.owner_id::text AS owner_id,
           count(DISTINCT e.id) AS entries,
           count(f.id) AS files,
           coalesce(sum(f.size), 0)::bigint AS bytes
      FROM entries e
      LEFT JOIN files f ON f.entry_id = e.id AND f.stored
     WHERE e.owner_id = ANY(${ownerIds}::uuid[])
     GROUP BY e.owner_id`;
  for (const r of rows) usage.set(r.owner_id, { entries: Number(r.entries), files: Number(r.files), bytes: Number(r.bytes) });
  return usage;
}
