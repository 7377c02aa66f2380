// The scrape's readings with every connection held: the pool's queue is counted, the database's
// gauges are left out after the deadline rather than holding the scrape, scrapes meanwhile queue
// nothing more, and once a connection is free the gauges come again (PGlite's one connection,
// PostgreSQL's ten).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { POSTGRES_CONNECTIONS } from '../db/client';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { metricsReadings } from './metrics-readings';

describe.each(testDatabases())('the metrics readings on %s', (kind) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await testWorld({ database: kind, waitMs: 10_000 });
  });
  afterAll(() => w.close());

  it('count what waits for a connection, and answer without the database after the deadline', async () => {
    expect(await metricsReadings()).toEqual({ poolWaiting: 0, database: expect.objectContaining({ webhookPending: 0 }) });
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const holders = kind === 'pglite' ? 1 : POSTGRES_CONNECTIONS;
    let started = 0;
    const held = Array.from({ length: holders }, () =>
      w.db.prisma.$transaction(
        async (tx) => {
          await tx.$queryRaw`SELECT 1`;
          started++;
          await gate;
        },
        { timeout: 20_000, maxWait: 20_000 },
      ),
    );
    await vi.waitFor(() => expect(started).toBe(holders));
    const t0 = Date.now();
    const late = await metricsReadings(300);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(late).toEqual({ poolWaiting: 0 });
    expect(late.database).toBeUndefined();
    // The first scrape's two statements still wait in the queue; the next scrapes wait for them
    // rather than queue their own.
    for (let i = 0; i < 3; i++) expect(await metricsReadings(100)).toEqual({ poolWaiting: 2 });
    release();
    await Promise.all(held);
    await vi.waitFor(async () => expect((await metricsReadings()).database).toBeDefined());
  });
});
