import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestOwner } from '../testing/owner';
import { testWorld, type TestWorld } from '../testing/database';
import { createEntry } from './create-entry';
import { listEntries } from './list-entries';

let w: TestWorld;
beforeAll(async () => (w = await testWorld()));
afterAll(() => w.close());

describe('listEntries', () => {
  it('visits every entry exactly once, newest first, even when many share a timestamp', async () => {
    const db = w.db.prisma;
    const owner = await createTestOwner(db, 'A');
    const target = { ownerId: owner.id, sandbox: false };
    const ids: string[] = [];
    for (let i = 0; i < 9; i++)
      ids.push((await createEntry({ db, target, input: { folder: i < 3 ? 'x' : '', name: `${i}`, meta: {} } })).entry.id);
    const same = new Date('2026-01-01T00:00:00.000Z');
    await db.entry.updateMany({ where: { id: { in: ids.slice(2, 7) } }, data: { createdAt: same } });
    const expected = (await db.entry.findMany({ where: { ownerId: owner.id }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] })).map(
      (e) => e.id,
    );
    for (const limit of [1, 2, 4]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await listEntries({ db, target, query: { limit, cursor } });
        seen.push(...page.list.map((e) => e.id));
        cursor = page.next_cursor;
      } while (cursor);
      expect(seen).toEqual(expected);
    }
    const other = await createTestOwner(db, 'B');
    expect((await listEntries({ db, target: { ownerId: other.id, sandbox: false }, query: { limit: 10 } })).list).toEqual([]);
    expect((await listEntries({ db, target: { ownerId: owner.id, sandbox: true }, query: { limit: 10 } })).list).toEqual([]);
    expect((await listEntries({ db, target, query: { limit: 10, folder: 'x' } })).list).toHaveLength(3);
  });
});
