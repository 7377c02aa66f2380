// For unit tests: a fresh, migrated database (in-memory PGlite, or a throwaway PostgreSQL database
// when asked and TEST_DATABASE_URL is set), a copy of the run's migrated template (templates.ts),
// and a blob store in a temp directory whose disk can be made to fail (faulty-disk.ts; it works
// normally until told otherwise), behind the database's small blobs as the server has it (database-store.ts).
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, setDatabase, type Database } from '../db/client';
import { DatabaseStore } from '../storage/database-store';
import { LocalDiskStore } from '../storage/local-disk';
import { FaultyDisk } from './faulty-disk';
import { testTemplates } from './templates';
import { migratedDatabase } from './throwaway-database';

export { type ThrowawayDatabase, throwawayDatabase } from './throwaway-database';

export type TestDatabase = 'pglite' | 'postgres';

export interface TestWorld {
  db: Database;
  /** PostgreSQL's URL of this world's database (a second instance may open it); none for PGlite */
  url?: string;
  /** with `twoRoles`: the owner's URL (the runtime role's is `url`) and both roles' names */
  ownerUrl?: string;
  roles?: { owner: string; runtime: string };
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

/**
 * `twoRoles` (PostgreSQL): the database is owned and migrated by one role and the world's client
 * runs as another, as DATABASE_OWNER_URL and DATABASE_URL make it (runtime-grants.ts); the run's
 * two roles (migratedDatabase), shared by its two-role worlds. A test that needs roles of its own
 * makes them with throwawayDatabase(true).
 */
export async function testWorld(opts: { database?: TestDatabase; waitMs?: number; twoRoles?: boolean } = {}): Promise<TestWorld> {
  const server = opts.database === 'postgres' ? await migratedDatabase(opts.twoRoles) : undefined;
  const loadDataDir = server ? undefined : testTemplates()?.pgliteTarball;
  const db = await openDatabase({ url: server?.url, ownerUrl: server?.ownerUrl, loadDataDir, waitMs: opts.waitMs }).catch(async (err) => {
    await server?.drop();
    throw err;
  });
  setDatabase(db);
  const storeDir = await mkdtemp(path.join(os.tmpdir(), 'silo-test-'));
  const disk = new FaultyDisk();
  const local = new LocalDiskStore(storeDir, disk.io);
  return {
    db,
    url: server?.url,
    ownerUrl: server?.ownerUrl,
    roles: server?.roles,
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
