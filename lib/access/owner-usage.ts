// The storage a workspace uses, for GET /admin/v1/owners(/{id}): its entries, its stored file
// versions and the sum of their sizes, both environments. Logical bytes: identical content is
// stored once, so the disk may hold less. Counted by triggers as entries and files are written
// (owner_usage, prisma/sql/usage.sql): a read sums a few rows per workspace, whatever its size.
import type { Db } from '../db/client';
import { Prisma } from '../db/generated/client';
import type { OwnerUsage } from '../schemas/access';

interface UsageRow {
  owner_id: string;
  entries: bigint;
  files: bigint;
  bytes: bigint;
}

const NONE: OwnerUsage = { entries: 0, files: 0, bytes: 0 };

/** One statement for a page of owners (not one per owner), by the table's primary key. */
export async function ownerUsage(db: Db, ownerIds: string[]): Promise<Map<string, OwnerUsage>> {
  const usage = new Map<string, OwnerUsage>(ownerIds.map((id) => [id, NONE]));
  if (ownerIds.length === 0) return usage;
  const rows = await db.$queryRaw<UsageRow[]>(ownerUsageSql(ownerIds));
  for (const r of rows) usage.set(r.owner_id, { entries: Number(r.entries), files: Number(r.files), bytes: Number(r.bytes) });
  return usage;
}

/** The statement ownerUsage sends (its plan is pinned by owner-usage.test.ts). */
export const ownerUsageSql = (ownerIds: string[]) => Prisma.sql`
  SELECT owner_id::text AS owner_id, sum(entries)::bigint AS entries, sum(files)::bigint AS files, sum(bytes)::bigint AS bytes
    FROM owner_usage
   WHERE owner_id = ANY(${ownerIds}::uuid[])
   GROUP BY owner_id`;
