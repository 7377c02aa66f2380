// GET /silo/v1/entries by invoice facts: each filter, combined with each other and with the other
// filters, paged by keyset; only current versions count; each filter reads its files index.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../db/generated/client';
import { entryListQuery } from '../schemas/entries';
import { TEST_ACTOR } from '../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { SMALL_BLOB_LIMITS, parseFileInput as parse } from '../testing/files';
import { createTestOwner } from '../testing/owner';
import { createEntry } from './create-entry';
import { createFile } from './files/create-file';
import { listEntries, listSql } from './list-entries';

const UBL = readFileSync(path.join(__dirname, '../invoices/samples/xrechnung-ubl-invoice.xml'), 'utf8');

/** The UBL sample with other facts. */
const invoice = (f: { number: string; seller: string; buyer: string; issued: string; currency: string }) =>
  UBL.replace('RE-2024-00042', f.number)
    .replace('DE123456789', f.seller)
    .replace('DE987654321', f.buyer)
    .replace('2024-03-15', f.issued)
    .replaceAll('EUR', f.currency);

const query = (q: Record<string, string | number>) => entryListQuery(1000).parse({ limit: 1000, ...q });

describe.each(testDatabases())('entries by invoice facts (%s)', (database) => {
  let w: TestWorld;
  let target: { ownerId: string; sandbox: boolean };
  const made: { id: string; number: string; seller: string; buyer: string; issued: string; currency: string; folder: string }[] = [];

  beforeAll(async () => {
    w = await testWorld({ database });
    const db = w.db.prisma;
    const owner = await createTestOwner(db, 'facts');
    target = { ownerId: owner.id, sandbox: false };
    const scope = { owners: [owner.id], sandbox: false };
    for (let i = 0; i < 12; i++) {
      const f = {
        number: `N-${i % 4}`,
        seller: ['DE111111111', 'FR22222222222', 'IT33333333333'][i % 3],
        buyer: ['DE444444444', 'AT U55555555'][i % 2],
        issued: `2025-0${1 + (i % 6)}-15`,
        currency: i % 5 === 0 ? 'USD' : 'EUR',
        folder: i % 2 ? 'sales/2025' : 'purchases',
      };
      const { entry } = await createEntry({ actor: TEST_ACTOR, db, target, input: { folder: f.folder, name: `e${i}`, meta: {} } });
      const data = Buffer.from(invoice(f)).toString('base64');
      await createFile({
        db,
        store: w.store,
        scope,
        entryId: entry.id,
        input: parse({ name: 'invoice.xml', mime: 'application/xml', data }),
        limits: SMALL_BLOB_LIMITS,
        actor: null,
      });
      made.push({ id: entry.id, ...f });
    }
    // Another workspace's invoices never show.
    const other = await createTestOwner(db, 'other');
    const { entry } = await createEntry({
      actor: null,
      db,
      target: { ownerId: other.id, sandbox: false },
      input: { folder: '', name: 'x', meta: {} },
    });
    await createFile({
      db,
      store: w.store,
      scope: { owners: [other.id], sandbox: false },
      entryId: entry.id,
      input: parse({
        name: 'i.xml',
        mime: 'application/xml',
        data: Buffer.from(UBL.replace('DE123456789', 'DE111111111')).toString('base64'),
      }),
      limits: SMALL_BLOB_LIMITS,
      actor: null,
    });
  });
  afterAll(() => w.close());

  /** Every page of 2, joined: what the filter finds, newest first. */
  const found = async (q: Record<string, string>) => {
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listEntries({ db: w.db.prisma, target, query: query({ ...q, limit: 2, ...(cursor ? { cursor } : {}) }) });
      ids.push(...page.list.map((e) => e.id));
      cursor = page.next_cursor;
    } while (cursor);
    return ids;
  };
  const expected = (keep: (m: (typeof made)[number]) => boolean) =>
    made
      .filter(keep)
      .map((m) => m.id)
      .reverse();

  it('finds by each fact, alone and together, with the other filters, over keyset pages', async () => {
    expect(await found({ seller_vat: 'DE111111111' })).toEqual(expected((m) => m.seller === 'DE111111111'));
    expect(await found({ seller_vat: 'de 111.111.111' })).toEqual(expected((m) => m.seller === 'DE111111111'));
    expect(await found({ buyer_vat: 'ATU55555555' })).toEqual(expected((m) => m.buyer === 'AT U55555555'));
    expect(await found({ number: 'N-2' })).toEqual(expected((m) => m.number === 'N-2'));
    expect(await found({ currency: 'usd' })).toEqual(expected((m) => m.currency === 'USD'));
    expect(await found({ issued_from: '2025-03-15', issued_to: '2025-04-30' })).toEqual(
      expected((m) => m.issued >= '2025-03-15' && m.issued <= '2025-04-30'),
    );
    expect(await found({ issued_from: '2025-06-01' })).toEqual(expected((m) => m.issued >= '2025-06-01'));
    expect(await found({ seller_vat: 'FR22222222222', currency: 'EUR', folder: 'sales' })).toEqual(
      expected((m) => m.seller === 'FR22222222222' && m.currency === 'EUR' && m.folder === 'sales/2025'),
    );
    expect(await found({ buyer_vat: 'DE444444444', q: 'e1' })).toEqual(
      expected((m) => m.buyer === 'DE444444444' && /^e1/.test(`e${made.indexOf(m)}`)),
    );
    expect(await found({ number: 'nope' })).toEqual([]);
  });

  it('counts only current versions: an invoice replaced by other bytes is no longer found', async () => {
    const m = made[0];
    const before = await found({ number: m.number, seller_vat: m.seller });
    expect(before).toContain(m.id);
    await createFile({
      db: w.db.prisma,
      store: w.store,
      scope: { owners: [target.ownerId], sandbox: false },
      entryId: m.id,
      input: parse({ name: 'invoice.xml', mime: 'application/xml', data: Buffer.from('<x/>').toString('base64') }),
      limits: SMALL_BLOB_LIMITS,
      actor: null,
    });
    expect(await found({ number: m.number, seller_vat: m.seller })).toEqual(before.filter((id) => id !== m.id));
  });

  it('refuses a day that is not one, and a range that ends before it starts', () => {
    for (const bad of [
      { issued_from: '2025-02-30' },
      { issued_to: '2025-13-01' },
      { issued_from: '20250101' },
      { issued_from: '2025-02-02', issued_to: '2025-02-01' },
    ])
      expect(entryListQuery(100).safeParse(bad).success).toBe(false);
  });

  it('reads each fact filter by its index once the table is large', async () => {
    const db = w.db.prisma;
    // 10,000 versions of other workspaces' invoices, with the statistics a running database keeps.
    await db.$executeRaw`
      WITH o AS (INSERT INTO owners (id, name) VALUES (gen_random_uuid(), 'bulk') RETURNING id),
      e AS (INSERT INTO entries (id, owner_id, sandbox, name)
        SELECT gen_random_uuid(), o.id, false, 'bulk ' || g FROM o, generate_series(1, 10000) g RETURNING id, name),
      s AS (INSERT INTO file_slots (id, entry_id, category, key, seq, current_id)
        SELECT gen_random_uuid(), e.id, 'attachment', 'i.xml', 1, gen_random_uuid() FROM e RETURNING id, entry_id, current_id)
      INSERT INTO files (id, entry_id, slot_id, name, category, mime, size, hash, stored, version, url_nonce, stored_at,
        facts, fact_seller_vat, fact_buyer_vat, fact_number, fact_issue_date, fact_currency)
      SELECT s.current_id, s.entry_id, s.id, 'i.xml', 'attachment', 'application/xml', 1, md5(s.id::text), true, 1, 'n', now(),
        '{}'::jsonb, 'DE' || (n % 5000), 'FR' || (n % 3000), 'B-' || n, date '2020-01-01' + (n % 2000)::int, (ARRAY['EUR','USD','GBP'])[1 + (n % 3)::int]
      FROM (SELECT s.*, row_number() OVER () AS n FROM s) s`;
    await db.$executeRaw`ANALYZE files`;
    await db.$executeRaw`ANALYZE file_slots`;
    await db.$executeRaw`ANALYZE entries`;
    const plan = async (q: Record<string, string>) => {
      const rows = await db.$queryRaw<{ 'QUERY PLAN': string }[]>(Prisma.sql`EXPLAIN ${listSql(target, query({ ...q, limit: 20 }))}`);
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    };
    for (const [q, index] of [
      [{ seller_vat: 'DE42' }, 'files_fact_seller_vat_list_idx'],
      [{ buyer_vat: 'FR42' }, 'files_fact_buyer_vat_list_idx'],
      [{ number: 'B-42' }, 'files_fact_number_list_idx'],
      [{ issued_from: '2024-01-01', issued_to: '2024-01-02' }, 'files_owner_id_sandbox_fact_issue_date_idx'],
    ] as const) {
      const p = await plan(q);
      expect(p, p).toMatch(new RegExp(`(Index Scan using|Bitmap Index Scan on) ${index}\\b`));
      expect(p, p).not.toMatch(/Seq Scan on files/);
    }
    // A currency is shared by a third of all invoices, but its index is the workspace's, in list
    // order: read from the top, never a scan of files.
    const p = await plan({ currency: 'USD' });
    expect(p, p).toMatch(/Index Scan using files_fact_currency_list_idx\b/);
    expect(p, p).not.toMatch(/Seq Scan on files/);
  });
});
