// A replacement's `previous` from the per-slot cache (slot-history.ts) is exactly what the
// database holds, whatever happened to the slot's versions in between and through whichever of two
// processes (two caches on one database): replacements, edited and deleted earlier versions,
// restores, a file deleted with its history; and under racing replacements through both.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Scope } from '../../db/scope';
import type { File } from '../../db/generated/client';
import { testDatabases, type TestWorld } from '../../testing/database';
import { SMALL_BLOB_LIMITS, parseFileInput as parse } from '../../testing/files';
import { withEntryWorld } from '../../testing/owner';
import { must } from '../../must';
import { createFile } from './create-file';
import { deleteFile } from './delete-file';
import { listPreviousVersions } from './list-previous-versions';
import { presentPrevious } from './present-file';
import { restoreFile } from './restore-file';
import { createSlotHistories, type PreviousText, type SlotHistories } from './slot-history';
import { updateFile } from './update-file';
import { TEST_ACTOR } from '../../testing/actor';

const parsed = (text: PreviousText) => JSON.parse(`[${Buffer.concat(text).toString()}]`);

/** Without the database: only a cached history can answer (a query here fails). */
const offline = { $queryRaw: () => Promise.reject(new Error('no query expected')) } as unknown as Parameters<
  SlotHistories['previousOf']
>[0];

type Op =
  | { t: 'replace'; via: number; late: number[] }
  | { t: 'edit'; pick: number }
  | { t: 'delete'; pick: number }
  | { t: 'restore'; pick: number }
  | { t: 'deleteAll' };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      t: fc.constant('replace' as const),
      via: fc.integer({ min: 0, max: 2 }),
      // earlier versions edited between the replacement and the reading of its history
      late: fc.oneof({ weight: 3, arbitrary: fc.constant<number[]>([]) }, { weight: 1, arbitrary: fc.array(fc.nat(), { maxLength: 2 }) }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('edit' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('delete' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('restore' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ t: 'deleteAll' as const }) },
);

describe.each(testDatabases())('the history of a replacement (%s)', (database) => {
  let w: TestWorld;
  let scope: Scope;
  let entryId: string;
  withEntryWorld(database, (made) => ({ w, scope, entryId } = made));

  const db = () => w.db.prisma;
  const replace = (key: string, n: number) =>
    createFile({
      db: db(),
      store: w.store,
      scope,
      entryId,
      input: parse({ name: `${key}.xml`, key, data: Buffer.from(`<v n="${n}"/>`).toString('base64') }),
      limits: SMALL_BLOB_LIMITS,
    });
  const earlier = async (key: string): Promise<File[]> => {
    const current = await db().fileSlot.findFirst({ where: { entryId, key }, select: { currentId: true } });
    return db().file.findMany({
      where: { entryId, key, stored: true, NOT: { id: current?.currentId ?? undefined } },
      orderBy: { version: 'desc' },
    });
  };

  it('is what the database holds after any sequence of changes, through either of two processes', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        const key = `k${run++}`;
        // Two processes, and one whose cache holds almost nothing (it reads every time).
        const caches: SlotHistories[] = [createSlotHistories(), createSlotHistories(), createSlotHistories(2048)];
        let n = 0;
        for (const o of ops) {
          const versions = await earlier(key);
          const pick = (i: number) => versions[i % versions.length];
          if (o.t === 'replace') {
            const { file, made } = await replace(key, n++);
            const then = (await listPreviousVersions(db(), file)).map(presentPrevious);
            const older = await earlier(key);
            for (const i of older.length ? o.late : [])
              await updateFile({ actor: TEST_ACTOR, db: db(), file: older[i % older.length], patch: { desc: `late ${n++}` } });
            const got = parsed(await caches[o.via].previousOf(db(), must(made, 'a small inline file is made by one statement')));
            // As the database held it when the version was made, or as it holds it now: never a mix.
            const now = (await listPreviousVersions(db(), file)).map(presentPrevious);
            expect([then, now]).toContainEqual(got);
          } else if (!versions.length) {
          } else if (o.t === 'edit') {
            await updateFile({ actor: TEST_ACTOR, db: db(), file: pick(o.pick), patch: { desc: `edited ${n++}` } });
          } else if (o.t === 'delete') {
            await deleteFile({ actor: TEST_ACTOR, db: db(), store: w.store, file: pick(o.pick) });
          } else if (o.t === 'restore') {
            await restoreFile({ db: db(), store: w.store, version: pick(o.pick) });
          } else {
            const current = await db().file.findFirstOrThrow({ where: { entryId, key, stored: true }, orderBy: { version: 'desc' } });
            await deleteFile({ actor: TEST_ACTOR, db: db(), store: w.store, file: current });
          }
        }
      }),
      {
        numRuns: 20,
        // Process 0 last saw version 1; two edits land between version 3's statement and its read,
        // one on a version it has cached and one on a version it has not: the answer is all before
        // them or all after them.
        examples: [
          [
            [
              { t: 'replace', via: 0, late: [] },
              { t: 'replace', via: 1, late: [] },
              { t: 'replace', via: 0, late: [1, 0] },
            ],
          ],
        ],
      },
    );
  });

  it('racing replacements through two processes each answer every version before their own, none lost', async () => {
    const caches = [createSlotHistories(), createSlotHistories()];
    const first = await replace('race', 0);
    await caches[0].previousOf(db(), must(first.made, 'made'));
    const made = await Promise.all(
      Array.from({ length: 24 }, async (_, i) => {
        const r = await replace('race', i + 1);
        return { file: r.file, previous: parsed(await caches[i % 2].previousOf(db(), must(r.made, 'made'))) };
      }),
    );
    const all = [first.file, ...made.map((m) => m.file)];
    for (const m of made) {
      const v = must(m.file.version, 'version');
      const before = all.filter((f) => must(f.version, 'version') < v).sort((a, b) => must(b.version, '') - must(a.version, ''));
      expect(m.previous.map((p: { id: string }) => p.id)).toEqual(before.map((f) => f.id));
    }
    expect(new Set(all.map((f) => f.version)).size).toBe(25);
  });

  it('grows by a replacement without a query while nothing else changed the slot', async () => {
    const histories = createSlotHistories();
    const a = await replace('quiet', 0);
    expect(await histories.previousOf(offline, must(a.made, 'made'))).toEqual([]); // a first version: none before it
    const b = await replace('quiet', 1);
    // A first version's history is not kept: the first replacement reads it…
    await expect(histories.previousOf(offline, must(b.made, 'made'))).rejects.toThrow('no query expected');
    expect(parsed(await histories.previousOf(db(), must(b.made, 'made'))).map((p: { id: string }) => p.id)).toEqual([a.file.id]);
    // …and from then on the history grows by each replacement, without a query.
    const c = await replace('quiet', 2);
    expect(parsed(await histories.previousOf(offline, must(c.made, 'made'))).map((p: { id: string }) => p.id)).toEqual([
      b.file.id,
      a.file.id,
    ]);
    // An earlier version edited: rev moved, and the next replacement reads again.
    await updateFile({ actor: TEST_ACTOR, db: db(), file: a.file, patch: { desc: 'edited' } });
    const d = await replace('quiet', 3);
    await expect(histories.previousOf(offline, must(d.made, 'made'))).rejects.toThrow('no query expected');
    const read = parsed(await histories.previousOf(db(), must(d.made, 'made')));
    expect(read.map((p: { id: string; desc: string }) => [p.id, p.desc])).toEqual([
      [c.file.id, ''],
      [b.file.id, ''],
      [a.file.id, 'edited'],
    ]);
  });

  it('keeps each history in memory of its own, never a slice of the shared buffer pool', async () => {
    // A slice of Node's 8 KiB pool kept in the cache would keep the whole pool: about 8 KiB held
    // per new file, counted at a few hundred bytes (measured under a stream of new files).
    const histories = createSlotHistories();
    const a = await replace('owned', 0);
    const b = await replace('owned', 1);
    await histories.previousOf(db(), must(b.made, 'made')); // read, and kept
    const c = await replace('owned', 2);
    const [piece] = await histories.previousOf(offline, must(c.made, 'made'));
    // The piece is the kept block without its leading comma; the block owns exactly its memory.
    expect(piece.buffer.byteLength).toBe(piece.length + 1);
    expect(parsed([piece]).map((p: { id: string }) => p.id)).toEqual([b.file.id, a.file.id]);
  });
});
