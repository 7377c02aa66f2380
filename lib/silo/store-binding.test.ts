// A store belongs to one database: the database's id is made once (two processes at once agree),
// the store records it, another database is refused.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestOwner } from '../testing/owner';
import { openDatabase } from '../db/client';
import { databaseId, ensureDatabaseId } from '../db/database-id';
import { LocalDiskStore } from '../storage/local-disk';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { createEntry } from './create-entry';
import { createFile } from './files/create-file';
import { parseFileInput, TEST_FILE_LIMITS } from '../testing/files';
import { bindStore, movedDefaultProblem } from './store-binding';
import { TEST_ACTOR } from '../testing/actor';

describe.each(testDatabases())('store binding (%s)', (database) => {
  let w: TestWorld;
  let other: TestWorld;
  beforeAll(async () => {
    w = await testWorld({ database });
    other = await testWorld({ database });
  });
  afterAll(async () => {
    await w.close();
    await other.close();
  });

  it('a database has one id, made once; racing first uses agree (x10)', async () => {
    const id = await databaseId(w.db.prisma);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await ensureDatabaseId(w.db.prisma)).toBe(id);
    expect(await databaseId(other.db.prisma)).not.toBe(id);
    if (database !== 'postgres') return;
    // Two processes starting at once on a database that has no id yet: two connection pools.
    const url = new URL(process.env.TEST_DATABASE_URL!);
    const [{ current_database: name }] = await w.db.sql.query<{ current_database: string }>('SELECT current_database()');
    url.pathname = `/${name}`;
    const second = await openDatabase({ url: url.toString() });
    try {
      for (let i = 0; i < 10; i++) {
        await w.db.prisma.$executeRaw`DELETE FROM settings WHERE name = 'database_id'`;
        const [a, b] = await Promise.all([ensureDatabaseId(w.db.prisma), ensureDatabaseId(second.prisma)]);
        expect(a).toBe(b);
      }
    } finally {
      await second.close();
    }
  });

  it('a store is claimed by the first database and refused to another', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'silo-bind-'));
    try {
      const id = await bindStore(w.db.prisma, new LocalDiskStore(dir));
      expect(await bindStore(w.db.prisma, new LocalDiskStore(dir))).toBe(id);
      const err = await bindStore(other.db.prisma, new LocalDiskStore(dir)).catch((e) => e);
      expect(err.name).toBe('StoreOfAnotherDatabase');
      expect(err.message).toContain(dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a new, empty default folder while the old shared one holds files of a database that has some', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'silo-moved-'));
    try {
      const fresh = new LocalDiskStore(path.join(root, 'blobs-pg-x'));
      const old = new LocalDiskStore(path.join(root, 'blobs'));
      const o = { store: fresh, storeDir: path.join(root, 'blobs-pg-x'), oldStore: old, oldDir: path.join(root, 'blobs') };
      // nothing in the old folder: a fresh install
      expect(await movedDefaultProblem(other.db.prisma, o)).toBeUndefined();
      const got = await old.receive('a', [Buffer.from('old')], { offset: 0, maxBytes: 10 });
      await old.commitHeld('a', got.hash);
      // the database has no stored file: nothing to lose
      expect(await movedDefaultProblem(other.db.prisma, o)).toBeUndefined();
      const owner = await createTestOwner(other.db.prisma, 'A');
      const entry = (
        await createEntry({
          actor: TEST_ACTOR,
          db: other.db.prisma,
          target: { ownerId: owner.id, sandbox: false },
          input: { folder: '', name: '', meta: {} },
        })
      ).entry;
      await createFile({
        db: other.db.prisma,
        store: other.store,
        scope: { owners: [owner.id], sandbox: false },
        entryId: entry.id,
        input: parseFileInput({ name: 'x', data: 'eA==' }),
        limits: TEST_FILE_LIMITS, // bytes in the store (none in the database), whose folder this is about
      });
      const problem = await movedDefaultProblem(other.db.prisma, o);
      expect(problem).toContain(`STORAGE_DIR=${path.join(root, 'blobs')}`);
      // once the new folder holds blobs, it is in use: no more objection
      const n = await fresh.receive('b', [Buffer.from('new')], { offset: 0, maxBytes: 10 });
      await fresh.commitHeld('b', n.hash);
      expect(await movedDefaultProblem(other.db.prisma, o)).toBeUndefined();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
