// `meta` is stored as written (migration meta_in_written_order): the keys come back in the order
// the caller wrote them, through every path that writes meta (entry create and update; file
// inline, placeholder, update, restore), on each database. jsonb kept them sorted, shortest first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../db/scope';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { TEST_FILE_LIMITS, parseFileInput, sha256 } from '../testing/files';
import { createTestOwner } from '../testing/owner';
import { createEntry } from './create-entry';
import { findEntry } from './find-entry';
import { createFile } from './files/create-file';
import { restoreFile } from './files/restore-file';
import { updateFile } from './files/update-file';
import { updateEntry } from './update-entry';
import { TEST_ACTOR } from '../testing/actor';

// An order jsonb does not keep. JSON.parse (and so every reader) puts integer-like keys ("7")
// first whatever the text says: docs/api.md says so, and no key here is one.
const WRITTEN = { zeta: '1', a: '2', 'middle key': '3', mm: '4' };
const CHANGED = { 'last first': 'x', b: 'y', aa: 'z' };
const ORDER = Object.keys(WRITTEN);

describe.each(testDatabases())('meta in written order on %s', (database) => {
  let w: TestWorld;
  let scope: Scope;
  let ownerId: string;
  beforeAll(async () => {
    w = await testWorld({ database });
    ownerId = (await createTestOwner(w.db.prisma, 'Order Co')).id;
    scope = { owners: [ownerId], sandbox: false };
  });
  afterAll(() => w?.close());

  /** The stored text's keys, as the database holds them. */
  const storedKeys = async (table: 'entries' | 'files', id: string) => {
    const [row] = await w.db.prisma.$queryRawUnsafe<{ meta: string }[]>(`SELECT meta::text AS meta FROM ${table} WHERE id = $1::uuid`, id);
    return Object.keys(JSON.parse(row.meta));
  };

  it('an entry keeps its keys in order through create, read and update', async () => {
    const { entry } = await createEntry({
      actor: TEST_ACTOR,
      db: w.db.prisma,
      target: { ownerId, sandbox: false },
      input: { name: 'e', folder: '', meta: WRITTEN },
    });
    expect(await storedKeys('entries', entry.id)).toEqual(ORDER);
    expect(Object.keys((await findEntry({ db: w.db.prisma, scope, id: entry.id })).meta as object)).toEqual(ORDER);
    const updated = await updateEntry({ actor: TEST_ACTOR, db: w.db.prisma, scope, id: entry.id, patch: { meta: CHANGED } });
    expect(Object.keys(updated.meta as object)).toEqual(Object.keys(CHANGED));
    expect(await storedKeys('entries', entry.id)).toEqual(Object.keys(CHANGED));
  });

  it('a file keeps its keys in order: inline, placeholder, update and restore', async () => {
    const { entry } = await createEntry({
      actor: TEST_ACTOR,
      db: w.db.prisma,
      target: { ownerId, sandbox: false },
      input: { name: 'f', folder: '', meta: {} },
    });
    const make = (input: object) =>
      createFile({
        db: w.db.prisma,
        store: w.store,
        scope,
        entryId: entry.id,
        input: parseFileInput(input),
        limits: TEST_FILE_LIMITS,
        actor: null,
      });
    const inline = await make({ name: 'a.txt', data: Buffer.from('one').toString('base64'), meta: WRITTEN });
    expect(Object.keys(inline.file.meta as object)).toEqual(ORDER);
    expect(await storedKeys('files', inline.file.id)).toEqual(ORDER);
    const placeholder = await make({ name: 'b.txt', mime: 'text/plain', size: 3, sha256: sha256('two'), meta: WRITTEN });
    expect(await storedKeys('files', placeholder.file.id)).toEqual(ORDER);
    const updated = await updateFile({ actor: TEST_ACTOR, db: w.db.prisma, file: inline.file, patch: { meta: CHANGED } });
    expect(Object.keys(updated.meta as object)).toEqual(Object.keys(CHANGED));
    await make({ name: 'a.txt', data: Buffer.from('two').toString('base64'), meta: {} });
    const restored = await restoreFile({ db: w.db.prisma, store: w.store, version: updated });
    expect(await storedKeys('files', restored.id)).toEqual(Object.keys(CHANGED));
  });
});
