// The entries of a chain and their versions stored in a period, a page of entries at a time: what
// the export's plan (plan-export.ts) lists. One statement per page, so an entry and its versions
// agree; its plan is pinned by plan-export.test.ts.
import { Prisma } from '../../db/generated/client';
import type { Tx } from '../../db/client';
import type { Chain } from '../../events/chain';
import { versionMember } from './member-names';
import type { ExportEntry, ExportVersion } from './tables';

/** Entries a page. */
export const PAGE = 1_000;

/**
 * How long after the period's end an entry may have been created and still hold a version stored
 * in it: a version's `stored_at` is its transaction's start, which may precede the commit of the
 * entry it joins by that transaction's age (seconds). A day is far past any transaction's life.
 */
const ENTRY_HORIZON_MS = 86_400_000;

interface PageRow {
  entry_id: string;
  entry_key: string | null;
  folder: string;
  entry_name: string;
  entry_created_at: Date;
  meta: string | null;
  id: string | null;
  category: string;
  key: string | null;
  version: number;
  name: string;
  mime: string;
  size: bigint;
  hash: string;
  stored_at: Date;
  created_by: ExportVersion['createdBy'];
}

/**
 * One page of periodPages: up to PAGE entries after `after`, with their versions stored in [start,
 * end). LATERAL with OFFSET 0 (which keeps the planner from folding it into a join): each entry's
 * versions are found by its id (files' entry_id index), never by hashing the page's entries against a
 * scan of every version of the table, which the planner chose for a plain join (plan-export.test.ts).
 */
export function periodPageSql(chain: Chain, start: Date, end: Date, after?: { at: Date; id: string }): Prisma.Sql {
  const horizon = new Date(end.getTime() + ENTRY_HORIZON_MS);
  const from = after ? Prisma.sql`AND (created_at, id) > (${after.at}, ${after.id}::uuid)` : Prisma.empty;
  return Prisma.sql`
    SELECT e.id::text AS entry_id, e.key AS entry_key, e.folder, e.name AS entry_name, e.created_at AS entry_created_at,
           CASE WHEN f.id IS NULL THEN NULL ELSE e.meta::text END AS meta,
           f.id::text AS id, f.category, f.key, f.version, f.name, f.mime, f.size, f.hash,
           coalesce(f.stored_at, f.created_at) AS stored_at, f.created_by
    FROM (SELECT id, key, folder, name, created_at, meta FROM entries
          WHERE owner_id = ${chain.ownerId}::uuid AND sandbox = ${chain.sandbox} AND created_at < ${horizon} ${from}
          ORDER BY created_at, id LIMIT ${PAGE}) e
    LEFT JOIN LATERAL (
      SELECT id, category, key, version, name, mime, size, hash, stored_at, created_at, created_by FROM files
      WHERE entry_id = e.id AND stored AND version IS NOT NULL
        AND coalesce(stored_at, created_at) >= ${start} AND coalesce(stored_at, created_at) < ${end}
      OFFSET 0) f ON true
    ORDER BY e.created_at, e.id, coalesce(f.stored_at, f.created_at), f.id`;
}

/**
 * The chain's entries, oldest first, a page at a time, each page with the versions its entries
 * had stored in [start, end) (oldest first in each entry); an entry with none is left out. One
 * statement per page reads both, so an entry and its versions agree. Only entries created before
 * the period's end (and ENTRY_HORIZON_MS) are read: a version is stored after its entry exists.
 */
export async function* periodPages(
  db: Tx,
  chain: Chain,
  start: Date,
  end: Date,
): AsyncIterable<{ entries: ExportEntry[]; versions: ExportVersion[] }> {
  let after: { at: Date; id: string } | undefined;
  for (;;) {
    const rows = await db.$queryRaw<PageRow[]>(periodPageSql(chain, start, end, after));
    if (!rows.length) return;
    const entries: ExportEntry[] = [];
    const versions: ExportVersion[] = [];
    for (const r of rows) {
      if (r.id === null) continue;
      if (entries.at(-1)?.id !== r.entry_id)
        entries.push({
          id: r.entry_id,
          key: r.entry_key,
          folder: r.folder,
          name: r.entry_name,
          createdAt: r.entry_created_at,
          meta: r.meta ?? '{}',
        });
      versions.push({
        fileId: r.id,
        entryId: r.entry_id,
        entryKey: r.entry_key,
        folder: r.folder,
        category: r.category,
        fileKey: r.key,
        version: r.version,
        name: r.name,
        mime: r.mime,
        size: Number(r.size),
        sha256: r.hash,
        storedAt: r.stored_at,
        createdBy: r.created_by,
        path: versionMember({ entryId: r.entry_id, fileId: r.id, version: r.version, name: r.name }),
      });
    }
    const last = rows[rows.length - 1];
    after = { at: last.entry_created_at, id: last.entry_id };
    if (entries.length || versions.length) yield { entries, versions };
    if (new Set(rows.map((r) => r.entry_id)).size < PAGE) return;
  }
}
