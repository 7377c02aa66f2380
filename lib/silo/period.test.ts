// An auditor's key's period on the silo's reads, on both databases: lists show only what was
// stored in it, a read of anything else is 403 outside_period (another workspace's stays 404), an
// entry's files are its versions of the period, the export's days are clamped to it.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import type { File } from '../db/generated/client';
import type { Period, Scope, Target } from '../db/scope';
import { listEvents } from '../events/list-events';
import { entryListQuery } from '../schemas/entries';
import { TEST_ACTOR } from '../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { SMALL_BLOB_LIMITS, parseFileInput } from '../testing/files';
import { createTestOwner } from '../testing/owner';
import { createEntry } from './create-entry';
import { clampExportPeriod } from './export/create-export';
import { createFile } from './files/create-file';
import { assertMayRead, findFileInEntry } from './files/find-file';
import { fileRecordsOf } from './files/period-files';
import { findEntry } from './find-entry';
import { listEntries } from './list-entries';

const YEAR_2025: Period = { start: new Date('2025-01-01T00:00:00Z'), end: new Date('2026-01-01T00:00:00Z') };
const signer = { base: 'http://silo.test', secret: 'test-secret' };

describe('clampExportPeriod', () => {
  it('keeps the days asked for that fall in [from, to) of the key; none: 403', () => {
    expect(clampExportPeriod({ from: '2024-07-01', to: '2025-06-30' }, YEAR_2025)).toEqual({ from: '2025-01-01', to: '2025-06-30' });
    expect(clampExportPeriod({ from: '2025-03-01', to: '2026-02-01' }, YEAR_2025)).toEqual({ from: '2025-03-01', to: '2025-12-31' });
    expect(clampExportPeriod({ from: '2025-12-31', to: '2025-12-31' }, YEAR_2025)).toEqual({ from: '2025-12-31', to: '2025-12-31' });
    expect(() => clampExportPeriod({ from: '2026-01-01', to: '2026-01-31' }, YEAR_2025)).toThrow(/period/);
    expect(() => clampExportPeriod({ from: '2024-01-01', to: '2024-12-31' }, YEAR_2025)).toThrow(/period/);
  });
});

describe.each(testDatabases())("an auditor's period on %s", (database) => {
  let w: TestWorld;
  let db: Db;
  let target: Target;
  let audit: Scope;
  let inside: string;
  let outside: string;
  let xml: File[];
  let pdf: File;
  let placeholder: File;

  /** Moves a version's stored time (the test's clock: every version is stored now). */
  const storedOn = async (f: File, day: string) => {
    await db.$executeRaw`UPDATE files SET stored_at = ${new Date(`${day}T12:00:00Z`)} WHERE id = ${f.id}::uuid`;
    return db.file.findUniqueOrThrow({ where: { id: f.id } });
  };

  beforeAll(async () => {
    w = await testWorld({ database });
    db = w.db.prisma;
    const owner = await createTestOwner(db, 'Audited');
    target = { ownerId: owner.id, sandbox: false };
    const scope: Scope = { owners: [owner.id], sandbox: false };
    audit = { ...scope, period: YEAR_2025 };
    const entry = async (key: string) =>
      (await createEntry({ db, target, actor: TEST_ACTOR, input: { key, folder: '', name: key, meta: {} } })).entry.id;
    [inside, outside] = [await entry('INV-2025'), await entry('INV-2026')];
    const add = async (entryId: string, input: object) =>
      (await createFile({ db, store: w.store, scope, entryId, input: parseFileInput(input), limits: SMALL_BLOB_LIMITS })).file;
    const data = (s: string) => Buffer.from(s).toString('base64');
    xml = [];
    for (const [i, day] of ['2025-03-01', '2025-09-01', '2026-03-01'].entries())
      xml.push(
        await storedOn(await add(inside, { name: `inv-${i + 1}.xml`, category: 'format', key: 'xml', data: data(`<v${i + 1}/>`) }), day),
      );
    pdf = await storedOn(await add(inside, { name: 'inv.pdf', category: 'attachment', data: data('%PDF'), private: true }), '2025-02-01');
    placeholder = await add(inside, { name: 'later.bin', mime: 'application/octet-stream', sha256: 'a'.repeat(64), size: 3 });
    await storedOn(await add(outside, { name: 'next.xml', data: data('<n/>') }), '2026-02-01');
  });
  afterAll(() => w.close());

  it('lists only the entries with a version stored in the period, counting those files', async () => {
    const query = entryListQuery(100).parse({});
    const all = await listEntries({ db, target, query });
    expect(all.list.map((e) => e.key).sort()).toEqual(['INV-2025', 'INV-2026']);
    const seen = await listEntries({ db, target: { ...target, period: YEAR_2025 }, query });
    expect(seen.list.map((e) => [e.key, e.file_count])).toEqual([['INV-2025', 2]]);
  });

  it('reads an entry of the period; one without a version in it is 403; unknown or foreign is 404', async () => {
    expect((await findEntry({ db, scope: audit, id: inside })).id).toBe(inside);
    await expect(findEntry({ db, scope: audit, id: outside })).rejects.toMatchObject({ status: 403, key: 'outside_period' });
    await expect(findEntry({ db, scope: audit, id: randomUUID() })).rejects.toMatchObject({ status: 404, key: 'not_found' });
    const foreign = { ...audit, owners: [randomUUID()] };
    await expect(findEntry({ db, scope: foreign, id: inside })).rejects.toMatchObject({ status: 404, key: 'not_found' });
  });

  it("shows each file's newest version of the period, with the period's earlier ones only", async () => {
    const records = await fileRecordsOf({ db, signer }, inside, YEAR_2025);
    expect(records.map((r) => [r.id, r.version, (r.previous ?? []).map((p) => p.id)])).toEqual([
      [pdf.id, 1, []],
      [xml[1].id, 2, [xml[0].id]],
    ]);
    const everyone = await fileRecordsOf({ db, signer }, inside, undefined);
    expect(everyone.map((r) => r.id).sort()).toEqual([pdf.id, xml[2].id, placeholder.id].sort());
  });

  it('reads a version of the period; another version or a placeholder is 403', async () => {
    const find = (f: File) => findFileInEntry({ db, scope: audit, entryId: f.entryId, id: f.id });
    expect((await find(xml[0])).id).toBe(xml[0].id);
    expect((await find(pdf)).id).toBe(pdf.id);
    await expect(find(xml[2])).rejects.toMatchObject({ status: 403, key: 'outside_period' });
    await expect(find(placeholder)).rejects.toMatchObject({ status: 403, key: 'outside_period' });
    await expect(findFileInEntry({ db, scope: audit, entryId: inside, id: randomUUID() })).rejects.toMatchObject({
      status: 404,
      key: 'not_found',
    });
  });

  it("on a file's url: its workspace's versions of the period, public ones included", async () => {
    await assertMayRead(db, pdf, audit);
    await expect(assertMayRead(db, xml[2], audit)).rejects.toMatchObject({ status: 403, key: 'outside_period' });
    await expect(assertMayRead(db, xml[0], { ...audit, owners: [randomUUID()] })).rejects.toMatchObject({ status: 404, key: 'not_found' });
    await assertMayRead(db, xml[2], undefined); // the url alone still opens a public version
  });

  it('lists the records made in the period only', async () => {
    const all = await listEvents(db, target, { limit: 100 });
    expect(all.list.length).toBeGreaterThan(0);
    expect((await listEvents(db, target, { limit: 100, period: YEAR_2025 })).list).toEqual([]);
    const now: Period = { start: new Date(Date.now() - 3600_000), end: new Date(Date.now() + 3600_000) };
    expect((await listEvents(db, target, { limit: 100, period: now })).list).toEqual(all.list);
  });
});
