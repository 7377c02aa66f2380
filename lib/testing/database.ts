// For unit tests: a fresh, migrated database (in-memory PGlite, or a throwaway PostgreSQL database
// when asked and TEST_DATABASE_URL is set) and a blob store in a temp directory whose disk can be
// made to fail (faulty-disk.ts; it works normally until told otherwise), behind the database's
// small blobs as the server has it (database-store.ts).
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, setDatabase, type Database } from '../db/client';
import { DatabaseStore } from '../storage/database-store';
import { LocalDiskStore } from '../storage/local-disk';
import { FaultyDisk } from './faulty-disk';

export type TestDatabase = 'pglite' | 'postgres';

export interface TestWorld {
  db: Database;
  /** PostgreSQL's URL of this world's database (a second instance may open it); none for PGlite */
  url?: string;
  /**
   * What the server's code gets (filesStore): the database's small blobs in front of `local`. Its
   * puts all go to `local` (keepUpTo 0), as TEST_FILE_LIMITS keep every inline file there.
   */
  store: DatabaseStore;
  /** the blob store in storeDir, alone */
  local: LocalDiskStore;
  storeDir: string;
  disk: FaultyDisk;
  close(): Promise<void>;
}

/** The databases a domain test should run on: PGlite, and PostgreSQL when TEST_DATABASE_URL is set. */
export const testDatabases = (): TestDatabase[] => (process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite']);

export async function testWorld(opts: { database?: TestDatabase; waitMs?: number } = {}): Promise<TestWorld> {
  const server = opts.database === 'postgres' ? await throwawayDatabase() : undefined;
  const db = await openDatabase({ url: server?.url, waitMs: opts.waitMs });
  setDatabase(db);
  const storeDir = await mkdtemp(path.join(os.tmpdir(), 'silo-test-'));
  const disk = new FaultyDisk();
  const local = new LocalDiskStore(storeDir, disk.io);
  return {
    db,
    url: server?.url,
    store: new DatabaseStore(db.prisma, local, { keepUpTo: 0 }),
    local,
    storeDir,
    disk,
    async close() {
      await db.close();
      await server?.drop();
      await rm(storeDir, { recursive: true, force: true });
    },
  };
}

async function throwawayDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const name = `silo_unit_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
