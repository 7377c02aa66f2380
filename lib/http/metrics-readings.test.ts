// The scrape's readings with every connection held: the pool's queue is counted, the database's
// gauges are left out after the deadline rather than holding the scrape, scrapes meanwhile queue
// nothing more, and once a connection is free the gauges come again (PGlite's one connection,
// PostgreSQL's ten).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { holdEveryConnection } from '../testing/held-connections';
import { metricsReadings } from './metrics-readings';

describe.each(testDatabases())('the metrics readings on %s', (kind) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await testWorld({ database: kind, waitMs: 10_000 });
  });
  afterAll(() => w.close());

  it('count what waits for a connection, and answer without the database after the deadline', async () => {
    expect(await metricsReadings()).toEqual({ poolWaiting: 0, database: expect.objectContaining({ webhookPending: 0 }) });
    const held = await holdEveryConnection(w.db.prisma, kind);
    const t0 = Date.now();
    const late = await metricsReadings(300);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(late).toEqual({ poolWaiting: 0 });
    expect(late.database).toBeUndefined();
    // The first scrape's two statements still wait in the queue; the next scrapes wait for them
    // rather than queue their own.
    for (let i = 0; i < 3; i++) expect(await metricsReadings(100)).toEqual({ poolWaiting: 2 });
    await held.release();
    await vi.waitFor(async () => expect((await metricsReadings()).database).toBeDefined());
  });
});
