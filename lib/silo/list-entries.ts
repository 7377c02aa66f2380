// GET /silo/v1/entries: one owner and environment's entries, newest first, keyset pages.
// One statement per page: the rows, each with its file count. `?folder=` (a folder and everything
// below it) reads entry_folders, whose index is in list order, so it pages like the plain list;
// `?folder_exact=` and `?key=` use the entries indexes. `?q=` probes entry_search (one row per
// name): a rare term by its trigram index, a common one by filtering the ordered scan, whichever the
// planner finds cheaper (docs/api.md, Entries; list-plans.test.ts pins both).
import { type Db, readCacheOf } from '../db/client';
import { decodeCursor, page } from '../db/cursor';
import { Prisma } from '../db/generated/client';
import type { Target } from '../db/scope';
import type { z } from 'zod';
import type { entryListQuery } from '../schemas/entries';
import { ENTRY_COLUMNS, type EntryRow, periodEntryColumns, storedInSql } from './entry-rows';
import { normalVatId } from './files/file-facts';
import { presentEntry } from './present-entry';

/** What `?limit`, `cursor`, `folder`, `folder_exact`, `key`, `retention`, `q` and the fact filters say, as the route's schema reads them. */
export type EntryListQuery = z.output<ReturnType<typeof entryListQuery>>;

export interface ListEntriesOptions {
  db: Db;
  target: Target;
  query: EntryListQuery;
}

/** `%s%` for ILIKE, with the pattern characters of `s` (`\`, `%`, `_`) taken literally. */
export const containsPattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** What a page of entries is read from: a write to any of them is a new page (lib/db/read-cache.ts). */
const READS = ['entries', 'entry_folders', 'entry_search', 'file_slots', 'files'];

export function listEntries(opts: ListEntriesOptions) {
  const { db, target, query } = opts;
  // What has expired changes with the clock, not with a write: never from the cache.
  if (query.retention === 'expired') return loadEntries(opts);
  return readCacheOf(db).read(READS, `entries ${JSON.stringify([target, query])}`, () => loadEntries(opts));
}

async function loadEntries({ db, target, query }: ListEntriesOptions) {
  const rows = await db.$queryRaw<EntryRow[]>(listSql(target, query));
  const p = page(rows, query.limit, query.cursor);
  return { ...p, list: p.list.map((e) => presentEntry(e, e.fileCount, e.facts)) };
}

/**
 * The fact filters, on one current version of the workspace (each backed by its files index, which
 * leads with the workspace; the planner starts from the most selective). Values are compared as the
 * row keeps them (file-facts.ts).
 */
function factConditions(target: Target, query: EntryListQuery): Prisma.Sql[] {
  const { sql } = Prisma;
  // The workspace leads every fact index (files.owner_id/sandbox, copied from the entry by a trigger).
  const out: Prisma.Sql[] = [sql`v.owner_id = ${target.ownerId}::uuid`, sql`v.sandbox = ${target.sandbox}`];
  if (query.seller_vat !== undefined) out.push(sql`v.fact_seller_vat = ${normalVatId(query.seller_vat)}`);
  if (query.buyer_vat !== undefined) out.push(sql`v.fact_buyer_vat = ${normalVatId(query.buyer_vat)}`);
  if (query.number !== undefined) out.push(sql`v.fact_number = ${query.number}`);
  if (query.currency !== undefined) out.push(sql`v.fact_currency = ${query.currency.toUpperCase()}`);
  if (query.issued_from !== undefined) out.push(sql`v.fact_issue_date >= ${query.issued_from}::date`);
  if (query.issued_to !== undefined) out.push(sql`v.fact_issue_date <= ${query.issued_to}::date`);
  return out;
}

/** The statement of one page (exported for the plan test). */
export function listSql(target: Target, query: EntryListQuery) {
  const { sql, join } = Prisma;
  const k = query.cursor ? decodeCursor(query.cursor) : undefined;
  // The table whose index orders the scan: entry_folders for a subtree, else entries.
  const subtree = query.folder !== undefined && query.folder !== '';
  const t = subtree ? sql`f` : sql`e`;
  const id = subtree ? sql`f.entry_id` : sql`e.id`;
  const where = [sql`${t}.owner_id = ${target.ownerId}::uuid`, sql`${t}.sandbox = ${target.sandbox}`];
  if (subtree) where.push(sql`f.prefix = ${query.folder}`);
  if (query.folder_exact !== undefined) where.push(sql`e.folder = ${query.folder_exact}`);
  if (query.key !== undefined) where.push(sql`e.key = ${query.key}`);
  // An auditor's key: only entries with a version stored in its period (docs/api.md, Auditor keys).
  if (target.period) where.push(sql`EXISTS (SELECT 1 FROM files v WHERE v.entry_id = e.id AND ${storedInSql(target.period, sql`v`)})`);
  // What may now be deleted (docs/api.md, Retention): a stored version whose date has passed, no hold.
  if (query.retention === 'expired')
    where.push(sql`NOT e.legal_hold AND EXISTS (SELECT 1 FROM files x WHERE x.entry_id = e.id AND x.stored AND x.retain_until <= now())`);
  // `created_at <= c AND (created_at < c OR id < i)`: the first term bounds the index range (lib/db/cursor.ts).
  if (k) where.push(sql`${t}.created_at <= ${k.createdAt} AND (${t}.created_at < ${k.createdAt} OR ${id} < ${k.id}::uuid)`);
  if (query.q !== undefined) {
    const like = containsPattern(query.q);
    // entry_search holds one row per name: the entry's, its key, each current version's and each
    // placeholder's (migration search_and_folder_counts), so a match lies within one of them.
    where.push(sql`EXISTS (SELECT 1 FROM entry_search s WHERE s.entry_id = e.id AND s.text ILIKE ${like} ESCAPE '\\')`);
  }
  const facts = factConditions(target, query);
  if (facts.length > 2)
    where.push(sql`EXISTS (SELECT 1 FROM file_slots fs JOIN files v ON v.id = fs.current_id
      WHERE fs.entry_id = e.id AND ${join(facts, ' AND ')})`);
  const from = subtree ? sql`entry_folders f JOIN entries e ON e.id = f.entry_id` : sql`entries e`;
  const columns = target.period ? periodEntryColumns(target.period) : ENTRY_COLUMNS;
  return sql`SELECT ${columns} FROM ${from}
    WHERE ${join(where, ' AND ')}
    ORDER BY ${t}.created_at DESC, ${id} DESC
    LIMIT ${query.limit + 1}`;
}
