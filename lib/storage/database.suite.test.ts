// The store suite on DatabaseStore: small bytes kept in the database (PGlite, and PostgreSQL when
// TEST_DATABASE_URL is set) in front of a local directory, as the server runs it. One database per
// run (opening one takes seconds), emptied of blobs for each case; a fresh directory each case.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe } from 'vitest';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { DatabaseStore } from './database-store';
import { LocalDiskStore } from './local-disk';
import { describeBlobStore } from './store-suite';

/** The server's default SMALL_BLOB_MAX_BYTES: the suite's small puts are kept in the database. */
const KEEP_UP_TO = 128 * 1024;

describe.each(testDatabases())('on %s', (database) => {
  let world: Promise<TestWorld> | undefined;
  afterAll(async () => (await world)?.close());

  describeBlobStore(`DatabaseStore (${database})`, async () => {
    world ??= testWorld({ database });
    const db = (await world).db.prisma;
    await db.$executeRaw`DELETE FROM blobs`;
    const root = await mkdtemp(path.join(os.tmpdir(), 'silo-suite-db-'));
    const open = () => new DatabaseStore(db, new LocalDiskStore(root), { keepUpTo: KEEP_UP_TO });
    return { store: open(), reopen: open, close: () => rm(root, { recursive: true, force: true }) };
  });
});
