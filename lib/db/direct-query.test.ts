// Statements sent past Prisma (direct-query.ts) answer as Prisma would, tell the read cache what
// they wrote, and stay inside a caller's transaction.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { readCacheOf, sqlRunnerOf } from './client';
import { queryDirect } from './direct-query';
import { Prisma } from './generated/client';

describe.each(testDatabases())('queryDirect on %s', (database) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await testWorld({ database });
  });
  afterAll(() => w.close());

  // Every column kind a direct statement may select (direct-query.ts), as both paths decode it.
  const ROW = Prisma.sql`SELECT ${randomUUID()}::uuid::text AS id, 4096::bigint::text AS size, 7::int AS n, true AS b, NULL::int AS nothing,
    '{"b":1,"a":[2,"x"]}'::json AS j, '{"b":1,"a":2}'::jsonb AS jb, '2026-11-26T07:00:00.123Z'::timestamptz AS at, ${"it's"}::text AS t`;

  it('decodes each allowed column kind as Prisma does', async () => {
    const direct = await queryDirect<Record<string, unknown>>(w.db.prisma, ROW);
    const viaPrisma = await w.db.prisma.$queryRaw<Record<string, unknown>[]>(ROW);
    expect(direct).toEqual(viaPrisma);
    expect(direct[0].at).toBeInstanceOf(Date);
    expect((direct[0].at as Date).toISOString()).toBe('2026-11-26T07:00:00.123Z');
    expect(Object.keys(direct[0].j as object)).toEqual(['b', 'a']);
  });

  it('goes to the driver only outside a transaction', async () => {
    expect(sqlRunnerOf(w.db.prisma)).toBeDefined();
    const id = randomUUID();
    await expect(
      w.db.prisma.$transaction(async (tx) => {
        expect(sqlRunnerOf(tx)).toBeUndefined();
        await queryDirect(tx, Prisma.sql`INSERT INTO owners (id, name) VALUES (${id}::uuid, 'rolled back') RETURNING id::text`);
        const seen = await queryDirect<{ n: number }>(tx, Prisma.sql`SELECT count(*)::int AS n FROM owners WHERE id = ${id}::uuid`);
        expect(seen[0].n).toBe(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await w.db.prisma.owner.findUnique({ where: { id } })).toBeNull();
  });

  it('tells the read cache what it wrote', async () => {
    const owner = await w.db.prisma.owner.create({ data: { id: randomUUID(), name: 'o' } });
    const id = randomUUID();
    await w.db.prisma.entry.create({ data: { id, ownerId: owner.id, sandbox: false, name: 'before' } });
    const cache = readCacheOf(w.db.prisma);
    const read = () => cache.read(['entries'], `entry:${id}`, async () => (await w.db.prisma.entry.findUnique({ where: { id } }))?.name);
    expect(await read()).toBe('before');
    await queryDirect(w.db.prisma, Prisma.sql`UPDATE entries SET name = 'after' WHERE id = ${id}::uuid`);
    expect(await read()).toBe('after');
  });
});
