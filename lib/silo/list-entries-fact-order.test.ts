// The fact filters read in list order (migration fact_list_order): an equality fact drives the page
// from its files index. Every page, row and cursor must be what the entries-driven form (the list
// before it, `byFacts: false`) gives, for every combination of filters: entries with no, one and two
// matching current versions, matching versions no longer current, the same facts in another
// workspace and in the sandbox, entries sharing a timestamp, a moved entry and one whose time changed.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { page } from '../db/cursor';
import { migratedBefore, testId } from '../testing/migrated-before';
import type { Target } from '../db/scope';
import { entryListQuery } from '../schemas/entries';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { createTestOwner } from '../testing/owner';
import type { EntryRow } from './entry-rows';
import { listSql } from './list-entries';

const S1 = 'DE111111111';
const S2 = 'DE222222222';
const B1 = 'FR333333333';
const T0 = Date.parse('2026-01-01T00:00:00Z');
const PERIOD = { start: new Date(T0 - 20 * 60_000), end: new Date(T0 - 5 * 60_000) };

/** One stored version's facts (null: a version without facts). */
interface Version {
  seller?: string;
  currency?: string;
  number?: string;
  issued?: string;
  /** minutes before T0 it was stored */
  storedAgo?: number;
  /** its retention passed */
  expired?: boolean;
}

describe.each(testDatabases())('fact filters in list order (%s)', (database) => {
  let w: TestWorld;
  let live: Target;
  let other: Target;
  const sandbox = (t: Target): Target => ({ ...t, sandbox: true });

  /** An entry `ago` minutes before T0 with `slots`, each a list of versions (the last current, unless `current: false`). */
  const entry = async (
    t: Target,
    ago: number,
    e: { folder?: string; key?: string; name?: string; hold?: boolean },
    slots: { versions: Version[]; current?: boolean }[],
  ) => {
    const db = w.db.prisma;
    const id = randomUUID();
    await db.$executeRaw`INSERT INTO entries (id, owner_id, sandbox, key, folder, name, legal_hold, created_at)
      VALUES (${id}::uuid, ${t.ownerId}::uuid, ${t.sandbox}, ${e.key ?? null}, ${e.folder ?? ''}, ${e.name ?? 'plain'}, ${e.hold ?? false},
        ${new Date(T0 - ago * 60_000)})`;
    for (const [n, s] of slots.entries()) {
      const slot = randomUUID();
      const ids = s.versions.map(() => randomUUID());
      const current = s.current === false ? null : ids[ids.length - 1];
      await db.$executeRaw`INSERT INTO file_slots (id, entry_id, category, key, seq, current_id)
        VALUES (${slot}::uuid, ${id}::uuid, 'attachment', ${`f${n}.xml`}, ${ids.length}, ${current}::uuid)`;
      for (const [k, v] of s.versions.entries()) {
        const facts = v.seller ? { number: v.number ?? 'N-0', seller: v.seller } : null;
        await db.$executeRaw`INSERT INTO files (id, entry_id, slot_id, name, category, mime, size, hash, stored, version, url_nonce,
            stored_at, retain_until, facts, fact_seller_vat, fact_buyer_vat, fact_number, fact_issue_date, fact_currency)
          VALUES (${ids[k]}::uuid, ${id}::uuid, ${slot}::uuid, ${`f${n}-v${k}.xml`}, 'attachment', 'application/xml', 1, 'h', true, ${k + 1}, 'n',
            ${new Date(T0 - (v.storedAgo ?? ago - 1) * 60_000)}, ${v.expired ? new Date(T0 - 86_400_000) : null}::timestamptz,
            ${facts ? JSON.stringify(facts) : null}::jsonb, ${v.seller ?? null}, ${v.seller ? B1 : null}, ${v.seller ? (v.number ?? 'N-0') : null},
            ${v.issued ?? (v.seller ? '2025-06-01' : null)}::date, ${v.seller ? (v.currency ?? 'EUR') : null})`;
      }
    }
    return id;
  };

  beforeAll(async () => {
    w = await testWorld({ database });
    const db = w.db.prisma;
    live = { ownerId: (await createTestOwner(db, 'facts')).id, sandbox: false };
    other = { ownerId: (await createTestOwner(db, 'other')).id, sandbox: false };
    const folders = ['', 'a', 'a/b', 'c', 'a/b/d'];
    for (let i = 0; i < 48; i++) {
      // Three entries a minute: list order within a minute is by id.
      const ago = Math.floor(i / 3);
      const e = {
        folder: folders[i % 5],
        key: i % 4 === 0 ? `K-${i}` : undefined,
        name: i % 6 === 1 ? `zeta ${i}` : `n ${i}`,
        hold: i % 11 === 3,
      };
      const v = (x: Partial<Version> = {}): Version => ({
        seller: S1,
        currency: i % 3 ? 'EUR' : 'USD',
        number: `N-${i % 4}`,
        issued: `2025-0${1 + (i % 6)}-10`,
        storedAgo: ago - (i % 5),
        expired: i % 7 === 2,
        ...x,
      });
      const kinds: { versions: Version[]; current?: boolean }[][] = [
        [], // no file
        [{ versions: [v()] }], // one matching current version
        [{ versions: [v()] }, { versions: [v({ currency: 'EUR', number: 'N-9' })] }], // two matching current versions
        [{ versions: [v(), v({ seller: S2 })] }], // matched, replaced by another seller
        [{ versions: [v({ seller: S2 })] }, { versions: [v()], current: false }], // a match in no current version
        [{ versions: [{}] }, { versions: [v({ seller: S2 }), v()] }], // a version without facts beside a match
        [{ versions: [v({ seller: S2, currency: 'USD' })] }, { versions: [v({ currency: 'GBP' })] }], // the facts on two versions
      ];
      await entry(live, ago, e, kinds[i % kinds.length]);
      // The same facts elsewhere, at the same times: the sandbox and another workspace.
      if (i % 4 === 1) await entry(sandbox(live), ago, e, kinds[i % kinds.length]);
      if (i % 4 === 2) await entry(other, ago, e, kinds[i % kinds.length]);
    }
  });
  afterAll(() => w.close());

  /** Every page of a statement form: each page's rows and next cursor, followed to the end. */
  const pages = async (target: Target, q: Record<string, string | number>, byFacts: boolean) => {
    const out: { rows: EntryRow[]; next?: string }[] = [];
    let cursor: string | undefined;
    do {
      const query = entryListQuery(1000).parse({ ...q, ...(cursor ? { cursor } : {}) });
      const rows = await w.db.prisma.$queryRaw<EntryRow[]>(listSql(target, query, { byFacts }));
      const p = page(rows, query.limit, cursor);
      out.push({ rows: p.list, next: p.next_cursor });
      cursor = p.next_cursor;
      expect(out.length).toBeLessThan(100);
    } while (cursor);
    return out;
  };

  const FACTS: Record<string, string>[] = [
    { seller_vat: S1 },
    { seller_vat: 'de 222.222.222' },
    { buyer_vat: B1 },
    { number: 'N-1' },
    { number: 'N-9' },
    { currency: 'eur' },
    { currency: 'GBP' },
    { seller_vat: S1, currency: 'USD' },
    { seller_vat: S2, currency: 'USD' },
    { seller_vat: S1, number: 'N-2', buyer_vat: B1 },
    { seller_vat: S1, issued_from: '2025-02-01', issued_to: '2025-04-30' },
    { currency: 'EUR', issued_from: '2025-05-01' },
    { seller_vat: 'XX000' },
  ];
  const OTHERS: Record<string, string>[] = [
    {},
    { folder: 'a' },
    { folder: 'a/b' },
    { folder: '' },
    { folder_exact: 'a/b' },
    { folder_exact: '' },
    { key: 'K-4' },
    { key: 'K-8' },
    { q: 'zeta' },
    { q: 'f1-v1' },
    { retention: 'expired' },
    { folder: 'a', q: 'zeta' },
  ];

  const same = async (targets: Target[], limits: number[]) => {
    let nonEmpty = 0;
    for (const target of targets)
      for (const f of FACTS)
        for (const o of OTHERS)
          for (const limit of limits) {
            const q = { ...f, ...o, limit };
            const what = JSON.stringify({ ...q, sandbox: target.sandbox, period: !!target.period });
            const before = await pages(target, q, false);
            const after = await pages(target, q, true);
            expect(after, what).toEqual(before);
            if (before[0].rows.length) nonEmpty++;
          }
    return nonEmpty;
  };

  it('drives the page from the fact index only for an equality fact', () => {
    const sql = (q: Record<string, string>) => listSql(live, entryListQuery(1000).parse(q)).sql;
    expect(sql({ seller_vat: S1 })).toContain('DISTINCT ON');
    expect(sql({ currency: 'EUR', folder: 'a' })).toContain('DISTINCT ON');
    expect(sql({ issued_from: '2025-01-01' })).not.toContain('DISTINCT ON');
    expect(sql({})).not.toContain('DISTINCT ON');
  });

  it('answers the pages, rows and cursors of the entries-driven form, for every combination of filters', async () => {
    // A workspace's list, its sandbox and an auditor's period; pages of 1 (every cursor) and of 4.
    const nonEmpty = await same([live, sandbox(live), other, { ...live, period: PERIOD }], [4]);
    expect(nonEmpty).toBeGreaterThan(100);
    await same([live], [1]);
  }, 300_000);

  it('finds each entry once, however many of its current versions match, and no version that is not current', async () => {
    const all = (await pages(live, { seller_vat: S1, limit: 5 }, true)).flatMap((p) => p.rows.map((r) => r.id));
    expect(new Set(all).size).toBe(all.length);
    const expected = await w.db.prisma.$queryRaw<{ id: string }[]>`
      SELECT e.id::text FROM entries e WHERE e.owner_id = ${live.ownerId}::uuid AND NOT e.sandbox AND EXISTS (
        SELECT 1 FROM file_slots s JOIN files v ON v.id = s.current_id WHERE s.entry_id = e.id AND v.fact_seller_vat = ${S1})
      ORDER BY e.created_at DESC, e.id DESC`;
    expect(all).toEqual(expected.map((r) => r.id));
    // Entries with two matching current versions are among them (kind 2), and those whose match was replaced are not (kind 3).
    expect(all.length).toBeGreaterThan(10);
  });

  it('follows an entry moved to another workspace and an entry whose time changed', async () => {
    const db = w.db.prisma;
    const [moved] = await db.$queryRaw<{ id: string }[]>`
      SELECT e.id::text FROM entries e JOIN files v ON v.entry_id = e.id JOIN file_slots s ON s.current_id = v.id
      WHERE e.owner_id = ${live.ownerId}::uuid AND NOT e.sandbox AND v.fact_seller_vat = ${S1}
        AND NOT e.legal_hold AND NOT EXISTS (
          SELECT 1 FROM files r WHERE r.entry_id = e.id AND r.stored AND r.retention_mode = 'compliance' AND r.retain_until > now())
      ORDER BY e.created_at, e.id LIMIT 1`; // an entry the database lets move (migration bytes_under_guard)
    await db.$executeRaw`UPDATE entries SET owner_id = ${other.ownerId}::uuid WHERE id = ${moved.id}::uuid`;
    // Two entries of one minute: one moves to the newest, the other to the same time as a third.
    const [a, b] = await db.$queryRaw<{ id: string }[]>`
      SELECT e.id::text FROM entries e WHERE e.owner_id = ${live.ownerId}::uuid AND NOT e.sandbox ORDER BY e.created_at, e.id OFFSET 10 LIMIT 2`;
    await db.$executeRaw`UPDATE entries SET created_at = ${new Date(T0 + 60_000)} WHERE id = ${a.id}::uuid`;
    await db.$executeRaw`UPDATE entries SET created_at = ${new Date(T0 - 7 * 60_000)} WHERE id = ${b.id}::uuid`;
    const stale = await db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM files v JOIN entries e ON e.id = v.entry_id
      WHERE (v.owner_id, v.sandbox, v.entry_created_at) IS DISTINCT FROM (e.owner_id, e.sandbox, e.created_at)`;
    expect(stale[0].n).toBe(0);
    await same([live, other], [3]);
    const ids = (await pages(other, { seller_vat: S1, limit: 50 }, true)).flatMap((p) => p.rows.map((r) => r.id));
    expect(ids).toContain(moved.id);
  }, 300_000);
});

describe('the fact_list_order migration', () => {
  it('backfills entry_created_at of the versions before it; the trigger sets and keeps it after it', async () => {
    const { sql, migrateRest, close } = await migratedBefore('fact_list_order');
    const id = testId;
    try {
      await sql.query('INSERT INTO owners (id, name) VALUES ($1, $2), ($3, $4)', [id(1), 'o', id(2), 'p']);
      const entry = `INSERT INTO entries (id, owner_id, sandbox, created_at) VALUES ($1, $2, false, $3)`;
      const file = `INSERT INTO files (id, entry_id, slot_id, name, category, mime, size, hash, stored, version, url_nonce, fact_seller_vat)
        VALUES ($1, $2, $3, 'i.xml', 'attachment', 'application/xml', 1, 'h', true, 1, 'n', 'DE1')`;
      const slot = `INSERT INTO file_slots (id, entry_id, category, key, seq, current_id) VALUES ($1, $2, 'attachment', $3, 1, $4)`;
      await sql.query(entry, [id(10), id(1), '2025-01-01T00:00:00.123Z']);
      await sql.query(slot, [id(20), id(10), 'a', id(30)]);
      await sql.query(file, [id(30), id(10), id(20)]);

      await migrateRest();
      const times = async () =>
        (
          await sql.query<{ id: string; owner_id: string; entry_created_at: Date }>(
            'SELECT id::text, owner_id::text, entry_created_at FROM files ORDER BY id',
          )
        ).map((r) => [r.id, r.owner_id, r.entry_created_at.toISOString()]);
      expect(await times()).toEqual([[id(30), id(1), '2025-01-01T00:00:00.123Z']]);

      // After it: a new version; the entry's time changed, the entry moved; a direct write undone.
      await sql.query(entry, [id(11), id(1), '2025-02-01T00:00:00Z']);
      await sql.query(slot, [id(21), id(11), 'b', id(31)]);
      await sql.query(file, [id(31), id(11), id(21)]);
      expect((await times())[1]).toEqual([id(31), id(1), '2025-02-01T00:00:00.000Z']);
      await sql.query("UPDATE entries SET created_at = '2024-12-31T00:00:00Z' WHERE id = $1", [id(10)]);
      await sql.query('UPDATE entries SET owner_id = $1 WHERE id = $2', [id(2), id(11)]);
      await sql.query("UPDATE files SET entry_created_at = '2000-01-01Z' WHERE id = $1", [id(31)]);
      expect(await times()).toEqual([
        [id(30), id(1), '2024-12-31T00:00:00.000Z'],
        [id(31), id(2), '2025-02-01T00:00:00.000Z'],
      ]);
      const indexes = await sql.query<{ indexname: string }>(
        "SELECT indexname FROM pg_indexes WHERE tablename = 'files' AND indexname LIKE 'files_fact_%' ORDER BY 1",
      );
      expect(indexes.map((r) => r.indexname)).toEqual([
        'files_fact_buyer_vat_list_idx',
        'files_fact_currency_list_idx',
        'files_fact_number_list_idx',
        'files_fact_seller_vat_list_idx',
      ]);
    } finally {
      await close();
    }
  });
});
