import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestOwner } from '../../testing/owner';
import { parseFileInput, TEST_FILE_LIMITS } from '../../testing/files';
import { testWorld, type TestWorld } from '../../testing/database';
import { createEntry } from '../create-entry';
import { createFile } from './create-file';
import { sweepUploads } from './sweep-uploads';
import { TEST_ACTOR } from '../../testing/actor';

let w: TestWorld;
beforeAll(async () => (w = await testWorld()));
afterAll(() => w.close());

it('drops the held bytes of expired placeholders and old scratch copies, keeps live uploads', async () => {
  const db = w.db.prisma;
  const owner = await createTestOwner(db, 'A');
  const entry = (
    await createEntry({ actor: TEST_ACTOR, db, target: { ownerId: owner.id, sandbox: false }, input: { folder: '', name: '', meta: {} } })
  ).entry;
  const parse = parseFileInput;
  const placeholder = async (name: string) =>
    (
      await createFile({
        db,
        store: w.store,
        scope: { owners: [owner.id] },
        entryId: entry.id,
        input: parse({ name, mime: 'application/pdf', sha256: createHash('sha256').update(name).digest('hex'), size: 100 }),
        limits: TEST_FILE_LIMITS,
      })
    ).file;
  const live = await placeholder('live');
  const expired = await placeholder('expired');
  await db.file.update({ where: { id: expired.id }, data: { uploadExpiresAt: new Date(Date.now() - 1000) } });
  for (const id of [live.id, expired.id, 'inline-leftover', '00000000-0000-4000-8000-000000000000'])
    await w.store.receive(id, [Buffer.from('partial')], { offset: 0, maxBytes: 100 });
  // scratch copies younger than an hour are someone's request in flight
  expect(await sweepUploads(db, w.store)).toBe(2);
  expect(await w.store.heldSize(live.id)).toBe(7);
  expect(await w.store.heldSize('inline-leftover')).toBe(7);
  expect(await sweepUploads(db, w.store, new Date(Date.now() + 2 * 3600 * 1000))).toBe(2);
  expect(await w.store.listHeld()).toEqual([]);
});
