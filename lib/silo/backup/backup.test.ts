// A backup of a filled instance restored onto the other database (embedded → PostgreSQL and back,
// when TEST_DATABASE_URL is set; embedded → embedded otherwise): every table's rows as they were,
// every version's bytes (small ones into the target's database, large ones into its store), the
// event chains verifying with their checkpoints, fsck clean, retention dates and holds kept and
// still enforced. Then what must be refused, naming the member: a changed byte, a truncated file, a
// member the manifest does not name, a target that holds data or another schema.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, open, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Tx } from '../../db/client';
import { checkpointChains } from '../../events/checkpoints';
import { verifyChain } from '../../events/verify-chain';
import { TEST_ACTOR } from '../../testing/actor';
import { type TestDatabase, testDatabases, testWorld, type TestWorld } from '../../testing/database';
import { fillWorkspace, key } from '../../testing/export-fixtures';
import { DatabaseStore } from '../../storage/database-store';
import { deleteFile } from '../files/delete-file';
import { fsck, hasProblems } from '../fsck';
import { RetentionRuleInput } from '../../schemas/retention';
import { setLegalHold } from '../retention/set-legal-hold';
import { createRetentionRule } from '../retention/retention-rules';
import { BLOB_LIST, LOCAL_SETTINGS } from './backup-format';
import { BackupRefused, checkBackup } from './check-backup';
import { createBackup } from './create-backup';
import { rowsQuery } from './plan-backup';
import { restoreBackup } from './restore-backup';
import type { ZipMember } from '../export/zip-structure';

/** What the target keeps in its database: the small versions there, the 300 KiB one in its store. */
const KEEP_UP_TO = 64 * 1024;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'silo-backup-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const other = (d: TestDatabase): TestDatabase => (testDatabases().includes('postgres') ? (d === 'pglite' ? 'postgres' : 'pglite') : d);

/** Every row of every table the backup holds, as the backup reads them, sorted: two instances equal if these are. */
async function tablesOf(db: Tx, tables: string[]): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const t of tables) out[t] = (await db.$queryRawUnsafe<{ j: string }[]>(rowsQuery(t))).map((r) => r.j).sort();
  return out;
}

async function backupTo(file: string, w: TestWorld, kind: TestDatabase) {
  const { zip } = await createBackup({ db: w.db.prisma, store: w.store, kind });
  await pipeline(zip.stream, createWriteStream(file));
}

/** Checks and restores `file` into `target` (its store keeping up to KEEP_UP_TO in the database). */
async function restoreInto(file: string, target: TestWorld) {
  const blobs: ZipMember[] = [];
  const checked = await checkBackup(file, { blob: async (m) => void blobs.push(m) });
  return restoreBackup({
    file,
    checked,
    db: target.db as Database,
    store: target.local,
    keepUpTo: KEEP_UP_TO,
    blobOffsets: async function* () {
      yield* blobs;
    },
  });
}

describe.each(testDatabases())('a backup of %s, restored', (database) => {
  let source: TestWorld;
  let target: TestWorld;
  let made: Awaited<ReturnType<typeof fillWorkspace>>;
  const file = () => path.join(dir, `${database}.zip`);
  beforeAll(async () => {
    source = await testWorld({ database });
    made = await fillWorkspace(source.db.prisma, source.store);
    const { db, store } = { db: source.db.prisma, store: source.store };
    const scope = { owners: [made.owner.id], sandbox: false };
    await createRetentionRule({
      db,
      store,
      target: made.chain,
      input: RetentionRuleInput.parse({ years: 10, from: 'stored', mode: 'compliance' }),
      applyToExisting: true,
      actor: TEST_ACTOR,
    });
    await setLegalHold({
      db,
      store,
      scope,
      entryId: made.files[3].entryId,
      input: { hold: true, reason: 'audit 2026' },
      actor: TEST_ACTOR,
    });
    // Tables of more than a read's chunk (64 KiB) of two-byte characters: a chunk ends inside one.
    for (let i = 0; i < 120; i++)
      await db.entry.create({ data: { id: randomUUID(), ownerId: made.owner.id, sandbox: false, name: `ä${i}`.padEnd(600, 'ä') } });
    await checkpointChains(db, key);
    await backupTo(file(), source, database);
    target = await testWorld({ database: other(database) });
  });
  afterAll(async () => {
    await source?.close();
    await target?.close();
  });

  it('holds the manifest first, every table, blobs.jsonl, then each stored version once', async () => {
    const blobs: string[] = [];
    const { manifest, members } = await checkBackup(file(), { blob: async (m) => void blobs.push(m.name) });
    expect(manifest.format).toBe('silo-backup/1');
    // manifest.json came first (checkBackup refuses a backup that does not start with it); then the tables, then the list
    expect([...members.keys()].slice(0, -1).every((m) => m.startsWith('tables/'))).toBe(true);
    expect([...members.keys()].at(-1)).toBe(BLOB_LIST);
    const names = manifest.tables.map((t) => t.name);
    for (const t of ['owners', 'entries', 'files', 'events', 'chain_heads', 'checkpoints', 'retention_rules', 'blobs', 'settings'])
      expect(names).toContain(t);
    for (const t of ['upload_leases', 'job_leases', 'rate_windows', 'cache_changes', '_prisma_migrations', '_sql_rules'])
      expect(names).not.toContain(t);
    const hashes = new Set(made.files.map((f) => f.hash));
    expect(blobs.sort()).toEqual([...hashes].map((h) => `blobs/${h}`).sort());
    expect(manifest.blobs.count).toBe(hashes.size);
  });

  it(`restores onto ${other(database)} every row as it was, and every version's bytes`, async () => {
    const report = await restoreInto(file(), target);
    const names = (await checkBackup(file())).manifest.tables.map((t) => t.name);
    const before = await tablesOf(source.db.prisma, names);
    const after = await tablesOf(target.db.prisma, names);
    for (const t of names) expect(after[t], t).toEqual(before[t]);
    // the big version went to the store, the small ones into the database
    expect(report.blobs.inStore).toBe(1);
    expect(report.blobs.inDatabase).toBe(new Set(made.files.map((f) => f.hash)).size - 1);
    const store = new DatabaseStore(target.db.prisma, target.local, { keepUpTo: KEEP_UP_TO, cache: false });
    for (const f of made.files) {
      const chunks: Buffer[] = [];
      for await (const b of await store.read(f.hash)) chunks.push(b as Buffer);
      const want: Buffer[] = [];
      for await (const b of await source.store.read(f.hash)) want.push(b as Buffer);
      expect(Buffer.concat(chunks).equals(Buffer.concat(want)), f.name).toBe(true);
    }
    // every trigger back as it was: on, and those that fire in replica mode too (ALWAYS) still so
    const triggers = (w: TestWorld) =>
      w.db.prisma.$queryRaw<{ t: string }[]>`
        SELECT c.relname || '.' || g.tgname || '=' || g.tgenabled::text AS t FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid
        WHERE NOT g.tgisinternal ORDER BY 1`;
    const modes = (await triggers(target)).map((r) => r.t);
    expect(modes).toEqual((await triggers(source)).map((r) => r.t));
    expect(modes.some((m) => m.endsWith('=A'))).toBe(true);
    // the database's own settings are its own: the target keeps its id (and its store's claim)
    const ids = await Promise.all(
      [source, target].map(async (w) => (await w.db.prisma.setting.findUnique({ where: { name: LOCAL_SETTINGS[0] } }))?.value),
    );
    expect(ids[0]).not.toBe(ids[1]);
  });

  it('the restored chains verify with their checkpoints; fsck is clean; retention and holds are enforced', async () => {
    const v = await verifyChain(target.db.prisma, made.chain, key);
    expect(v.ok, v.reason).toBe(true);
    expect(v.checkpoints).toBeGreaterThan(0);
    const heads = async (w: TestWorld) =>
      (await w.db.prisma.chainHead.findMany({ orderBy: { ownerId: 'asc' } })).map((h) => [h.seq, h.hash]);
    expect(await heads(target)).toEqual(await heads(source));
    const store = new DatabaseStore(target.db.prisma, target.local, { keepUpTo: KEEP_UP_TO, cache: false });
    const report = await fsck(target.db.prisma, store);
    expect(hasProblems(report), JSON.stringify(report)).toBe(false);
    // the triggers are back on: a compliance-retained version cannot be deleted, by the API or by SQL
    await expect(deleteFile({ db: target.db.prisma, store, file: made.files[0], actor: TEST_ACTOR })).rejects.toThrow(/retain/i);
    await expect(target.db.prisma.$executeRawUnsafe(`DELETE FROM files WHERE id = '${made.files[0].id}'`)).rejects.toThrow();
  });

  it('a restore stopped half-way commits nothing, and runs again into the same target', async () => {
    const fresh = await testWorld({ database: other(database) });
    try {
      const blobs: ZipMember[] = [];
      const checked = await checkBackup(file(), { blob: async (m) => void blobs.push(m) });
      let calls = 0;
      const o = {
        file: file(),
        checked,
        db: fresh.db as Database,
        store: fresh.local,
        keepUpTo: KEEP_UP_TO,
        blobOffsets: async function* () {
          calls++;
          for (const b of blobs) {
            // the second walk is the one inside the load's transaction, after every table
            if (calls === 2) throw new Error('killed');
            yield b;
          }
        },
      };
      await expect(restoreBackup(o)).rejects.toThrow('killed');
      expect(await fresh.db.prisma.entry.count()).toBe(0);
      expect(await fresh.db.prisma.event.count()).toBe(0);
      const again = await restoreBackup(o);
      expect(again.blobs.skipped).toBe(1); // the big one was placed by the first run
      expect(await fresh.db.prisma.entry.count()).toBe(await source.db.prisma.entry.count());
    } finally {
      await fresh.close();
    }
  });

  it("refuses a manifest naming a table that is not the schema's (a catalog), before loading anything", async () => {
    const fresh = await testWorld({ database: other(database) });
    try {
      const checked = await checkBackup(file());
      const tables = checked.manifest.tables.map((t) => (t.name === 'users' ? { ...t, name: 'pg_authid' } : t));
      await expect(
        restoreBackup({
          file: file(),
          checked: { ...checked, manifest: { ...checked.manifest, tables } },
          db: fresh.db as Database,
          store: fresh.local,
          keepUpTo: KEEP_UP_TO,
          blobOffsets: async function* () {},
        }),
      ).rejects.toThrow("manifest.json: its tables are not this schema's: pg_authid is not");
      expect(await fresh.db.prisma.owner.count()).toBe(0);
    } finally {
      await fresh.close();
    }
  });

  it('refuses to restore into a database that holds data', async () => {
    // the target now holds the restored archive
    await expect(restoreInto(file(), target)).rejects.toThrow(/holds rows: restore into a new, empty database/);
  });

  it('refuses a changed byte, naming the member; a truncated file; a member the manifest does not name', async () => {
    const { members } = await checkBackup(file());
    const bytes = await readFile(file());
    // a byte of the files table changed
    const files = members.get('tables/files.jsonl') as ZipMember;
    const changed = path.join(dir, `${database}-changed.zip`);
    const copy = Buffer.from(bytes);
    copy[files.offset + 10] ^= 1;
    await writeFile(changed, copy);
    await expect(checkBackup(changed)).rejects.toThrow(/tables\/files\.jsonl/);
    // a byte of the big version changed
    const big = `blobs/${made.files[2].hash}`;
    let at = 0;
    await checkBackup(file(), {
      blob: async (m) => {
        if (m.name === big) at = m.offset;
      },
    });
    const blobCopy = Buffer.from(bytes);
    blobCopy[at + 1000] ^= 0x20;
    await writeFile(changed, blobCopy);
    await expect(checkBackup(changed)).rejects.toThrow(new RegExp(big));
    // truncated: the end records are gone
    const cut = path.join(dir, `${database}-cut.zip`);
    await writeFile(cut, bytes);
    await truncate(cut, (await stat(cut)).size - 100);
    await expect(checkBackup(cut)).rejects.toBeInstanceOf(BackupRefused);
    // not a backup at all: an empty file
    const empty = path.join(dir, `${database}-empty.zip`);
    await (await open(empty, 'w')).close();
    await expect(checkBackup(empty)).rejects.toBeInstanceOf(BackupRefused);
  });
});
