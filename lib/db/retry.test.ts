import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestWorld, testDatabases, testWorld } from '../testing/database';
import { retryingConflicts } from './retry';

const conflict = (code: string) => Object.assign(new Error(`conflict ${code}`), { code });

describe('retryingConflicts', () => {
  it('runs again only for a deadlock or a serialization failure, and gives up after its attempts', async () => {
    for (const code of ['40P01', '40001']) {
      let runs = 0;
      const ok = await retryingConflicts(
        async () => {
          runs++;
          if (runs < 3) throw conflict(code);
          return 'done';
        },
        { baseMs: 1 },
      );
      expect([ok, runs]).toEqual(['done', 3]);
    }
    let runs = 0;
    await expect(
      retryingConflicts(
        async () => {
          runs++;
          throw conflict('40P01');
        },
        { attempts: 4, baseMs: 1 },
      ),
    ).rejects.toThrow('conflict 40P01');
    expect(runs).toBe(4);
    // anything else is thrown at once: a unique violation, a foreign key, a plain error
    for (const code of ['23505', '23503', 'P2025', undefined]) {
      let once = 0;
      await expect(
        retryingConflicts(async () => {
          once++;
          throw code ? conflict(code) : new Error('plain');
        }),
      ).rejects.toThrow();
      expect(once).toBe(1);
    }
  });

  it('finds the state behind Prisma and the driver adapter (P2034, cause chains)', async () => {
    let runs = 0;
    await retryingConflicts(
      async () => {
        runs++;
        if (runs === 1) throw Object.assign(new Error('wrapped'), { cause: conflict('40P01') });
        if (runs === 2) throw Object.assign(new Error('prisma'), { code: 'P2034' });
        if (runs === 3) throw Object.assign(new Error('adapter'), { meta: { driverAdapterError: { cause: { originalCode: '40001' } } } });
      },
      { baseMs: 1 },
    );
    expect(runs).toBe(4);
  });
});

describe.each(testDatabases())('a real deadlock on %s', (database) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await testWorld({ database });
  }, 60_000);
  afterAll(() => w?.close());

  // The embedded database has one connection: its transactions never interleave, so no deadlock.
  it.runIf(database === 'postgres')(
    'two transactions locking two rows in opposite orders both commit, each exactly once',
    async () => {
      const a = randomUUID();
      const b = randomUUID();
      await w.db.prisma.$executeRaw`INSERT INTO owners (id, name) VALUES (${a}::uuid, 'A'), (${b}::uuid, 'B')`;
      let runs = 0;
      // Each first run takes its first row, then waits until the other has taken its own: then
      // each wants the row the other holds.
      let locked = 0;
      let bothLocked!: () => void;
      const crossed = new Promise<void>((r) => (bothLocked = r));
      const both = (first: string, second: string, tag: string) =>
        w.db.prisma.$transaction(async (tx) => {
          runs++;
          await tx.$executeRaw`UPDATE owners SET name = name || ${tag} WHERE id = ${first}::uuid`;
          if (++locked === 2) bothLocked();
          await crossed;
          await tx.$executeRaw`UPDATE owners SET name = name || ${tag} WHERE id = ${second}::uuid`;
        });
      // Without the retry one of the two fails with 40P01 (deadlock detected).
      await Promise.all([both(a, b, 'x'), both(b, a, 'y')]);
      expect(runs).toBe(3);
      const rows = await w.db.prisma.$queryRaw<
        { name: string }[]
      >`SELECT name FROM owners WHERE id IN (${a}::uuid, ${b}::uuid) ORDER BY id`;
      // each transaction's writes landed once: every name got one x and one y
      for (const r of rows) expect([...r.name.slice(1)].sort().join('')).toBe('xy');
    },
    30_000,
  );
});
