// The one-time setup link: the token is checked before any argon2 work, and racing completions
// make exactly one admin, the others answered 403 (10 rounds, on PGlite and, with
// TEST_DATABASE_URL, on a real PostgreSQL where the race is a real one).
import { afterAll, describe, expect, it, vi } from 'vitest';
import { testDatabases, testWorld } from '../testing/database';
import { isApiError } from '../errors';
import { completeSetup } from './complete-setup';
import { issueSetupToken } from './issue-setup-token';

// Counts argon2 hashes (the real ones run): a wrong token must cost none.
const argon2 = vi.hoisted(() => ({ hashes: 0 }));
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof import('@node-rs/argon2')>();
  return {
    ...real,
    hash: (...args: Parameters<typeof real.hash>) => {
      argon2.hashes += 1;
      return real.hash(...args);
    },
  };
});

const ROUNDS = 10;
const RACERS = 20;

const worlds: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of worlds) await close();
});

const kinds = testDatabases().map(
  (kind) =>
    [
      kind,
      async () => {
        const w = await testWorld({ database: kind });
        worlds.push(() => w.close());
        return w.db;
      },
    ] as const,
);

describe.each(kinds)('completeSetup on %s', (_kind, open) => {
  it('never hashes a password for a wrong token', async () => {
    const db = (await open()).prisma;
    await issueSetupToken(db);
    const before = argon2.hashes;
    await expect(
      completeSetup({ db, token: 'wrong', user: { email: 'a@example.com', name: 'A', password: 'long enough' } }),
    ).rejects.toMatchObject({ key: 'forbidden' });
    expect(argon2.hashes).toBe(before);
  });

  it(`${RACERS} racing completions: one admin, the rest 403 (${ROUNDS} rounds)`, async () => {
    const db = (await open()).prisma;
    for (let round = 0; round < ROUNDS; round++) {
      await db.user.deleteMany();
      const link = await issueSetupToken(db);
      if (link?.kind !== 'yours') throw new Error('no setup link');
      const { token } = link;
      const results = await Promise.allSettled(
        Array.from({ length: RACERS }, (_, i) =>
          completeSetup({ db, token, user: { email: `r${round}-${i}@example.com`, name: `R${i}`, password: 'a long password' } }),
        ),
      );
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(won).toHaveLength(1);
      for (const r of lost) expect(isApiError(r.reason) && r.reason.key, String(r.reason)).toBe('forbidden');
      expect(await db.user.count()).toBe(1);
    }
  });
});
