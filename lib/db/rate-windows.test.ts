// The limiter beside the shared counters: one window per key across every caller of the database,
// the contract's 429 with Retry-After past the limit, an event given back, a new window after the end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { countInWindow, limit, uncountInWindow } from './rate-windows';

describe.each(testDatabases())('rate limits (%s)', (database) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await testWorld({ database });
  });
  afterAll(() => w.close());

  it('lets `max` events through a window and answers 429 with the seconds left to the next', async () => {
    const db = w.db.prisma;
    const t0 = Date.now();
    for (let i = 0; i < 3; i++) await limit(db, 'k:limit', 3, 60, t0 + i * 1000);
    const err = await limit(db, 'k:limit', 3, 60, t0 + 10_500).catch((e) => e);
    expect(err).toMatchObject({ key: 'rate_limited', status: 429, headers: { 'Retry-After': '50' } });
    // Another key has its own window; this one's ends 60 s after its first event.
    await limit(db, 'k:other', 3, 60, t0 + 10_500);
    await limit(db, 'k:limit', 3, 60, t0 + 60_000);
    expect((await countInWindow(db, 'k:limit', 60, t0 + 60_001)).count).toBe(2);
  });

  it('gives back an event of the current window only', async () => {
    const db = w.db.prisma;
    const t0 = Date.now();
    await countInWindow(db, 'k:release', 60, t0);
    await countInWindow(db, 'k:release', 60, t0);
    await uncountInWindow(db, 'k:release', t0 + 1000);
    expect((await countInWindow(db, 'k:release', 60, t0 + 2000)).count).toBe(2);
    await uncountInWindow(db, 'k:release', t0 + 61_000); // the window has ended: nothing to give back
    expect((await countInWindow(db, 'k:release', 60, t0 + 61_000)).count).toBe(1);
  });
});
