// For unit tests: a fresh, migrated, in-memory PGlite and a blob store in a temp directory.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, setDatabase, type Database } from '../db/client';
import { LocalDiskStore } from '../storage/local-disk';

export interface TestWorld {
  db: Database;
  store: LocalDiskStore;
  storeDir: string;
  close(): Promise<void>;
}

export async function testWorld(): Promise<TestWorld> {
  const db = await openDatabase({});
  setDatabase(db);
  const storeDir = await mkdtemp(path.join(os.tmpdir(), 'silo-test-'));
  return {
    db,
    store: new LocalDiskStore(storeDir),
    storeDir,
    async close() {
      await db.close();
      await rm(storeDir, { recursive: true, force: true });
    },
  };
}
