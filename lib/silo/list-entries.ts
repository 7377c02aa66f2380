// GET /silo/v1/entries: one owner and environment's entries, newest first, keyset pages.
// One statement per page: the rows, each with its file count. `?folder=` (a folder and everything
// below it) reads entry_folders, whose index is in list order, so it pages like the plain list;
// `?folder_exact=` and `?key=` use the entries indexes. `?q=` probes entry_search (one row per
// name): a rare term by its trigram index, a common one by filtering the ordered scan, whichever the
// planner finds cheaper (docs/api.md, Entries; list-plans.test.ts pins both). An equality fact
// (`?seller_vat=`, buyer_vat, number, currency) drives the page from its files index, which is in
// list order too (migration fact_list_order), so its page stops after a page's worth of matches.
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
 * leads with the workspace). Values are compared as the row keeps them (file-facts.ts). `ordered`:
 * whether an equality fact is among them, whose index (migration fact_list_order) lists the
 * versions in list order.
 */
function factConditions(target: Target, query: EntryListQuery): { facts: Prisma.Sql[]; ordered: boolean } {
  const { sql } = Prisma;
  // The workspace leads every fact index (files.owner_id/sandbox, copied from the entry by a trigger).
  const out: Prisma.Sql[] = [sql`v.owner_id = ${target.ownerId}::uuid`, sql`v.sandbox = ${target.sandbox}`];
  if (query.seller_vat !== undefined) out.push(sql`v.fact_seller_vat = ${normalVatId(query.seller_vat)}`);
  if (query.buyer_vat !== undefined) out.push(sql`v.fact_buyer_vat = ${normalVatId(query.buyer_vat)}`);
  if (query.number !== undefined) out.push(sql`v.fact_number = ${query.number}`);
  if (query.currency !== undefined) out.push(sql`v.fact_currency = ${query.currency.toUpperCase()}`);
  const ordered = out.length > 2;
  if (query.issued_from !== undefined) out.push(sql`v.fact_issue_date >= ${query.issued_from}::date`);
  if (query.issued_to !== undefined) out.push(sql`v.fact_issue_date <= ${query.issued_to}::date`);
  return { facts: out.length > 2 ? out : [], ordered };
}

/**
 * The statement of one page (exported for the plan test). `byFacts: false` keeps an equality fact
 * filter on the entries scan, as before migration fact_list_order: the test that compares the two.
 */
export function listSql(target: Target, query: EntryListQuery, { byFacts = true }: { byFacts?: boolean } = {}) {
  const { sql, join } = Prisma;
  const k = query.cursor ? decodeCursor(query.cursor) : undefined;
  const { facts, ordered } = factConditions(target, query);
  // The table whose index orders the scan: files for an equality fact, entry_folders for a subtree,
  // else entries. Its (created_at, id) are the entry's.
  const subtree = query.folder !== undefined && query.folder !== '';
  const drive = ordered && byFacts ? 'files' : subtree ? 'folders' : 'entries';
  const [at, id] = {
    files: [sql`v.entry_created_at`, sql`v.entry_id`],
    folders: [sql`f.created_at`, sql`f.entry_id`],
    entries: [sql`e.created_at`, sql`e.id`],
  }[drive];
  // The workspace, on the driving table. Driven by files it is in the fact conditions, on the
  // version's copy of its entry's; tested on the entry too, the planner would count the workspace's
  // share twice and expect too few matches to stop early. Only `folder_exact` and `key` need it on
  // the entry: their indexes lead with it.
  const t = drive === 'folders' ? sql`f` : sql`e`;
  const onEntry = drive !== 'files' || query.folder_exact !== undefined || query.key !== undefined;
  const where = onEntry ? [sql`${t}.owner_id = ${target.ownerId}::uuid`, sql`${t}.sandbox = ${target.sandbox}`] : [];
  if (drive === 'folders') where.push(sql`f.prefix = ${query.folder}`);
  // Driven by files: the subtree as the entry's row of it (entry_folders' primary key).
  else if (subtree) where.push(sql`EXISTS (SELECT 1 FROM entry_folders f WHERE f.entry_id = e.id AND f.prefix = ${query.folder})`);
  if (query.folder_exact !== undefined) where.push(sql`e.folder = ${query.folder_exact}`);
  if (query.key !== undefined) where.push(sql`e.key = ${query.key}`);
  // An auditor's key: only entries with a version stored in its period (docs/api.md, Auditor keys).
  if (target.period) where.push(sql`EXISTS (SELECT 1 FROM files p WHERE p.entry_id = e.id AND ${storedInSql(target.period, sql`p`)})`);
  // What may now be deleted (docs/api.md, Retention): a stored version whose date has passed, no hold.
  if (query.retention === 'expired')
    where.push(sql`NOT e.legal_hold AND EXISTS (SELECT 1 FROM files x WHERE x.entry_id = e.id AND x.stored AND x.retain_until <= now())`);
  // `created_at <= c AND (created_at < c OR id < i)`: the first term bounds the index range (lib/db/cursor.ts).
  if (k) where.push(sql`${at} <= ${k.createdAt} AND (${at} < ${k.createdAt} OR ${id} < ${k.id}::uuid)`);
  if (query.q !== undefined) {
    const like = containsPattern(query.q);
    // entry_search holds one row per name: the entry's, its key, each current version's and each
    // placeholder's (prisma/sql/search.sql), so a match lies within one of them.
    where.push(sql`EXISTS (SELECT 1 FROM entry_search s WHERE s.entry_id = e.id AND s.text ILIKE ${like} ESCAPE '\\')`);
  }
  const columns = target.period ? periodEntryColumns(target.period) : ENTRY_COLUMNS;
  if (drive === 'files') {
    // The page read from the fact index in list order: each current version that matches, joined to
    // its entry; an entry with two such versions comes twice in a row, and DISTINCT ON keeps one
    // (the order is the entry's, so the pair is adjacent). The page stops after limit + 1 entries,
    // however many match.
    return sql`SELECT DISTINCT ON (${at}, ${id}) ${columns}
      FROM files v JOIN file_slots fs ON fs.current_id = v.id JOIN entries e ON e.id = v.entry_id
      WHERE ${join([...facts, ...where], ' AND ')}
      ORDER BY ${at} DESC, ${id} DESC
      LIMIT ${query.limit + 1}`;
  }
  if (facts.length)
    where.push(sql`EXISTS (SELECT 1 FROM file_slots fs JOIN files v ON v.id = fs.current_id
      WHERE fs.entry_id = e.id AND ${join(facts, ' AND ')})`);
  const from = drive === 'folders' ? sql`entry_folders f JOIN entries e ON e.id = f.entry_id` : sql`entries e`;
  return sql`SELECT ${columns} FROM ${from}
    WHERE ${join(where, ' AND ')}
    ORDER BY ${at} DESC, ${id} DESC
    LIMIT ${query.limit + 1}`;
}
