// `npm run seed`'s workspace (seed-workspace.ts) is what real writes would have left: the list, a
// folder's subtree and a fact search find its entries, each version's bytes are what its hash and
// facts say (the reader finds the same facts in them), fsck finds nothing wrong, the event log's
// chain verifies, and the printed key authenticates.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { principalFromBearer } from '../access/authenticate';
import { loadedAuditKey } from '../events/signing-key';
import { verifyChain } from '../events/verify-chain';
import { readInvoiceFacts } from '../invoices/read-facts';
import { entryListQuery } from '../schemas/entries';
import { presentFacts } from '../silo/files/file-facts';
import { fsck } from '../silo/fsck';
import { listEntries } from '../silo/list-entries';
import { testDatabases, testWorld, type TestWorld } from './database';
import { type SeededWorkspace, seedWorkspace } from './seed-workspace';

const N = 500;
const key = loadedAuditKey(); // the key that signs the records (lib/testing/audit-key-setup.ts)
const query = (q: Record<string, string | number>) => entryListQuery(1000).parse({ limit: 1000, ...q });

async function bytesOf(w: TestWorld, hash: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of await w.store.read(hash)) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}

describe.each(testDatabases())('a seeded workspace (%s)', (database) => {
  let w: TestWorld;
  let seeded: SeededWorkspace;
  let target: { ownerId: string; sandbox: boolean };

  beforeAll(async () => {
    w = await testWorld({ database });
    // Small batches, so that the chain runs on across statements.
    seeded = await seedWorkspace(w.db, { entries: N, batch: 200, key, end: new Date('2025-12-31T23:59:59Z'), years: 10 });
    target = { ownerId: seeded.owner_id, sandbox: false };
  }, 120_000);
  afterAll(() => w?.close());

  it('lists every entry newest first, each with its files and facts, in folders by year and month (ten years)', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let first: Awaited<ReturnType<typeof listEntries>>['list'] = [];
    do {
      const page = await listEntries({ db: w.db.prisma, target, query: query({ limit: 100, ...(cursor ? { cursor } : {}) }) });
      if (!cursor) first = page.list;
      seen.push(...page.list.map((e) => e.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(N);
    expect(new Set(seen).size).toBe(N);
    const newest = first[0];
    expect(newest).toMatchObject({ folder: '2025/12', key: expect.stringMatching(/^(RE|FA)-2025-0000499$/) });
    expect(newest.facts).toMatchObject({ number: newest.key, currency: expect.any(String) });
    for (const e of first) expect([1, 2]).toContain(e.file_count);
    expect(first.some((e) => e.file_count === 2)).toBe(true);
    // entry_folders, which the folder list and ?folder= read, is the trigger's work: a row per year and month.
    const [{ years, months }] = await w.db.prisma.$queryRaw<{ years: number; months: number }[]>`
      SELECT count(DISTINCT prefix) FILTER (WHERE prefix NOT LIKE '%/%')::int AS years, count(DISTINCT prefix) FILTER (WHERE prefix LIKE '%/%')::int AS months
      FROM entry_folders WHERE owner_id = ${seeded.owner_id}::uuid`;
    expect(years).toBe(10);
    expect(months).toBe(120);
  });

  it('finds a subtree and a fact, as the indexes the filters read hold them', async () => {
    const year = (await listEntries({ db: w.db.prisma, target, query: query({ folder: '2020' }) })).list;
    const [{ n }] = await w.db.prisma.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM entries WHERE owner_id = ${seeded.owner_id}::uuid AND folder LIKE '2020/%'`;
    expect(year.length).toBe(n);
    expect(n).toBeGreaterThan(30);
    for (const e of year) expect(e.folder).toMatch(/^2020\/\d\d$/);

    const seller = (year[0].facts as { seller: { vat_id: string } }).seller.vat_id;
    const bySeller = (await listEntries({ db: w.db.prisma, target, query: query({ seller_vat: seller }) })).list;
    expect(bySeller.map((e) => e.id)).toContain(year[0].id);
    for (const e of bySeller) expect((e.facts as { seller: { vat_id: string } }).seller.vat_id).toBe(seller);
    // What the fact indexes order by: each version's copy of its entry's workspace and time (trigger files_workspace).
    const [{ off }] = await w.db.prisma.$queryRaw<{ off: number }[]>`
      SELECT count(*)::int AS off FROM files v JOIN entries e ON e.id = v.entry_id WHERE e.owner_id = ${seeded.owner_id}::uuid
        AND (v.owner_id, v.sandbox, v.entry_created_at) IS DISTINCT FROM (e.owner_id, e.sandbox, e.created_at)`;
    expect(off).toBe(0);
  });

  it('keeps every version’s bytes under their real hash, with the facts the reader finds in them', async () => {
    const files = await w.db.prisma.file.findMany({
      where: { entry: { ownerId: seeded.owner_id } },
      orderBy: [{ entryId: 'asc' }, { createdAt: 'asc' }],
      take: 60,
    });
    expect(new Set(files.map((f) => f.mime))).toEqual(new Set(['application/xml', 'application/pdf']));
    for (const f of files) {
      const bytes = await bytesOf(w, f.hash);
      expect(bytes.length).toBe(Number(f.size));
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(f.hash);
      const read = readInvoiceFacts(bytes, f.mime);
      if (f.mime === 'application/pdf') {
        expect(bytes.subarray(0, 8).toString()).toBe('%PDF-1.4');
        expect(read).toBeNull();
        expect(f.facts).toBeNull();
      } else {
        expect(read).not.toBeNull();
        expect(presentFacts(f.facts)).toEqual(read);
        expect(f.factSellerVat).toBe(read?.seller.vat_id);
        expect(f.factNumber).toBe(read?.number);
      }
    }
    const slots = await w.db.prisma.fileSlot.findMany({ where: { entry: { ownerId: seeded.owner_id } }, include: { files: true } });
    for (const s of slots) {
      expect(s.files.map((f) => f.version).sort()).toEqual(s.files.map((_, i) => i + 1));
      expect(s.currentId).toBe(s.files.find((f) => f.version === s.seq)?.id);
    }
  });

  it('passes fsck, its chain verifies, and its key authenticates as its owner', async () => {
    expect((await fsck(w.db.prisma, w.store)).bad).toEqual([]);
    const chain = await verifyChain(w.db.prisma, target, key);
    const records = await w.db.prisma.event.count({ where: { ownerId: seeded.owner_id, sandbox: false } });
    expect(chain).toMatchObject({ ok: true, checked: records });
    const files = await w.db.prisma.file.count({ where: { entry: { ownerId: seeded.owner_id } } });
    expect(records).toBe(1 + N + 2 * files);
    expect(await principalFromBearer(w.db.prisma, seeded.api_key)).toMatchObject({
      kind: 'owner',
      ownerId: seeded.owner_id,
      sandbox: false,
    });
  });
});
