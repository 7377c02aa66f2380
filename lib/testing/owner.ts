// A workspace row for domain tests of lib/silo, which may not import lib/access (no API keys made).
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import type { Scope } from '../db/scope';
import { createFile } from '../silo/files/create-file';
import type { BlobStore } from '../storage/blob-store';
import { afterAll, beforeAll } from 'vitest';
import { type TestDatabase, type TestWorld, testWorld } from './database';
import { parseFileInput, sha256 as sha, TEST_FILE_LIMITS } from './files';

export async function createTestOwner(db: Db, name: string) {
  return db.owner.create({ data: { id: randomUUID(), name } });
}

/** A live entry of the workspace: its id. */
const newLiveEntry = async (db: Db, ownerId: string) =>
  (await db.entry.create({ data: { id: randomUUID(), ownerId, sandbox: false, name: 'e' } })).id;

/** A workspace with one live entry, and the scope of its owner's live key: where file tests upload. */
export async function createTestEntry(db: Db, ownerName = 'Acme'): Promise<{ scope: Scope; entryId: string }> {
  const owner = await createTestOwner(db, ownerName);
  return { scope: { owners: [owner.id], sandbox: false }, entryId: await newLiveEntry(db, owner.id) };
}

/**
 * A maker of placeholders awaiting `bytes`, each in an entry of its own in one workspace (the
 * upload lease tests): what a POST without data makes.
 */
export async function placeholderMaker(db: Db, store: BlobStore) {
  const owner = await createTestOwner(db, 'Acme');
  const scope: Scope = { owners: [owner.id], sandbox: false };
  return {
    scope,
    async placeholder(bytes: Buffer, id?: string) {
      const entryId = await newLiveEntry(db, owner.id);
      const input = { name: `p-${Math.random()}.bin`, mime: 'application/octet-stream', sha256: sha(bytes), size: bytes.length };
      const { file } = await createFile({ db, store, scope, entryId, id, input: parseFileInput(input), limits: TEST_FILE_LIMITS });
      return { file, entryId, input };
    },
  };
}

/**
 * For a describe block of file tests: before them, a world on `database` with one live entry,
 * handed to `take`; after them, the world closed.
 */
export function withEntryWorld(database: TestDatabase, take: (made: { w: TestWorld; scope: Scope; entryId: string }) => void) {
  let w: TestWorld | undefined;
  beforeAll(async () => {
    w = await testWorld({ database });
    take({ w, ...(await createTestEntry(w.db.prisma)) });
  });
  afterAll(() => w?.close());
}
