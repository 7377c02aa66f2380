import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadedAuditKey } from '../../events/signing-key';
import { TEST_ACTOR } from '../../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../../testing/database';
import { SMALL_BLOB_LIMITS, parseFileInput as parse } from '../../testing/files';
import { createTestOwner } from '../../testing/owner';
import { seedWorkspace } from '../../testing/seed-workspace';
import { createEntry } from '../create-entry';
import { createFile } from '../files/create-file';
import { parseCsv } from './csv';
import { explainAnalyzed, planNodes } from '../../testing/plan-nodes';
import { periodPageSql } from './period-pages';
import { type ExportMember, type ExportPlan, planExport } from './plan-export';

const key = loadedAuditKey(); // the key that signs the records (lib/testing/audit-key-setup.ts)
const today = new Date().toISOString().slice(0, 10);

async function membersOf(plan: ExportPlan) {
  const out: ExportMember[] = [];
  for await (const m of plan.members()) out.push(m);
  return out;
}

async function textOf(m: ExportMember | undefined): Promise<string> {
  if (!m?.open) throw new Error(`${m?.name} has no bytes to open`);
  const chunks: Buffer[] = [];
  for await (const c of await m.open()) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks).toString('utf8');
}

describe.each(testDatabases())('the export plan over a seeded workspace (%s)', (database) => {
  let w: TestWorld;
  let chain: { ownerId: string; sandbox: boolean };
  let late: string;

  beforeAll(async () => {
    w = await testWorld({ database });
    // 2,500 entries over 2024 and 2025: three pages of entries, two and a half of them before 2026.
    const seeded = await seedWorkspace(w.db, { entries: 2500, end: new Date('2025-12-31T12:00:00Z'), years: 2 });
    chain = { ownerId: seeded.owner_id, sandbox: false };
    // An entry made in 2020 (its date set in the database) that receives a version today.
    late = (await createEntry({ actor: TEST_ACTOR, db: w.db.prisma, target: chain, input: { folder: 'old', name: 'old', meta: {} } })).entry
      .id;
    await w.db.prisma.$executeRaw`UPDATE entries SET created_at = '2020-06-01T00:00:00Z' WHERE id = ${late}::uuid`;
    await createFile({
      db: w.db.prisma,
      store: w.store,
      scope: { owners: [chain.ownerId], sandbox: false },
      entryId: late,
      input: parse({ name: 'late.xml', data: Buffer.from('<x/>').toString('base64') }),
      limits: SMALL_BLOB_LIMITS,
    });
  }, 300_000);
  afterAll(() => w?.close());

  it('lists exactly the versions stored in the period, and each of their entries once, oldest first', async () => {
    const period = { from: '2025-01-01', to: '2025-12-31' };
    const plan = await planExport({ db: w.db.prisma, store: w.store, chain, period, key, location: 'x' });
    const expected = await w.db.prisma.$queryRaw<{ id: string; entry_id: string; size: bigint }[]>`
      SELECT f.id::text, f.entry_id::text, f.size FROM files f JOIN entries e ON e.id = f.entry_id
      WHERE e.owner_id = ${chain.ownerId}::uuid AND NOT e.sandbox AND f.stored AND f.version IS NOT NULL
        AND f.stored_at >= '2025-01-01T00:00:00Z' AND f.stored_at < '2026-01-01T00:00:00Z'
      ORDER BY e.created_at, e.id, f.stored_at, f.id`;
    expect(expected.length).toBeGreaterThan(2000);
    const members = await membersOf(plan);
    const files = parseCsv(await textOf(members.find((m) => m.name === 'files.csv'))).slice(1);
    expect(files.map((r) => r[0])).toEqual(expected.map((r) => r.id));
    expect(plan.versions).toBe(expected.length);
    expect(plan.bytes).toBe(expected.reduce((n, r) => n + Number(r.size), 0));
    const entries = parseCsv(await textOf(members.find((m) => m.name === 'entries.csv'))).slice(1);
    expect(entries.map((r) => r[0])).toEqual([...new Set(expected.map((r) => r.entry_id))]);
    const created = entries.map((r) => r[4]);
    expect(created).toEqual([...created].sort());
    // the ZIP's members: the named ones, then a version each in files.csv's order, as the manifest says
    expect(members.slice(8).map((m) => m.name)).toEqual(files.map((r) => r[16]));
    const manifest = JSON.parse(await textOf(members[0]));
    expect(Object.keys(manifest.files)).toEqual(members.slice(2).map((m) => m.name));
    await plan.dispose();
    await expect(membersOf(plan)).rejects.toThrow(/ENOENT/);
  }, 120_000);

  it('holds an entry made before the period when one of its versions was stored in it', async () => {
    const plan = await planExport({ db: w.db.prisma, store: w.store, chain, period: { from: today, to: today }, key, location: 'x' });
    try {
      const members = await membersOf(plan);
      const entries = parseCsv(await textOf(members.find((m) => m.name === 'entries.csv'))).slice(1);
      expect(entries.map((r) => r[0])).toEqual([late]);
      expect(plan.versions).toBe(1);
      expect(members.at(-1)?.name).toMatch(new RegExp(`^files/${late}/.+/v1-late\\.xml$`));
    } finally {
      await plan.dispose();
    }
  });
});

describe.each(testDatabases())('the export plan’s page at scale (%s)', (database) => {
  let w: TestWorld;
  let chain: { ownerId: string; sandbox: boolean };
  beforeAll(async () => {
    w = await testWorld({ database });
    chain = { ownerId: (await createTestOwner(w.db.prisma, 'Pages')).id, sandbox: false };
    // 20,000 entries a minute apart up to 2026, one version each, stored with its entry
    await w.db.prisma.$executeRaw`
      WITH e AS (
        INSERT INTO entries (id, owner_id, sandbox, key, folder, name, created_at)
        SELECT gen_random_uuid(), ${chain.ownerId}::uuid, false, 'INV-' || g, '', 'Invoice ' || g, timestamptz '2026-01-01' - g * interval '1 minute'
        FROM generate_series(1, 20000) g RETURNING id, created_at),
      s AS (INSERT INTO file_slots (id, entry_id, category, key, seq, current_id)
        SELECT gen_random_uuid(), e.id, 'attachment', 'i.xml', 1, gen_random_uuid() FROM e RETURNING id, entry_id, current_id)
      INSERT INTO files (id, entry_id, slot_id, name, category, mime, size, hash, stored, version, url_nonce, stored_at)
      SELECT s.current_id, s.entry_id, s.id, 'i.xml', 'attachment', 'application/xml', 1, md5(s.id::text), true, 1, 'n', e.created_at
      FROM s JOIN e ON e.id = s.entry_id`;
    await w.db.prisma.$executeRawUnsafe('ANALYZE entries');
    await w.db.prisma.$executeRawUnsafe('ANALYZE files');
  }, 120_000);
  afterAll(() => w?.close());

  it('reads a page of entries from the list index and their versions by entry, scanning neither table', async () => {
    const sql = periodPageSql(chain, new Date('2025-12-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'), {
      at: new Date('2025-12-20T00:00:00Z'),
      id: '00000000-0000-0000-0000-000000000000',
    });
    const nodes = planNodes(await explainAnalyzed(w.db.prisma, sql));
    const text = JSON.stringify(nodes.map((n) => [n['Node Type'], n['Relation Name'], n['Actual Rows'], n['Actual Loops']]));
    expect(
      nodes.filter((n) => n['Node Type'] === 'Seq Scan' && /^(entries|files)$/.test(n['Relation Name'] ?? '')),
      text,
    ).toEqual([]);
    // the page's 1,000 entries and their versions, not the workspace's 20,000
    for (const table of ['entries', 'files']) {
      const read = nodes.filter((n) => n['Relation Name'] === table).reduce((k, n) => k + n['Actual Rows'] * n['Actual Loops'], 0);
      expect(read, text).toBeLessThanOrEqual(1000);
    }
  });
});
