// The webhook backlog the metrics report: how many deliveries are pending and the age of the
// oldest, and a read that touches the pending rows only, however many finished ones are kept
// (EXPLAIN ANALYZE; PGlite, and PostgreSQL when TEST_DATABASE_URL is set).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { explainAnalyzed, planNodes } from '../testing/plan-nodes';
import { PENDING_DELIVERIES_SQL, pendingDeliveries } from './pending-deliveries';

describe.each(testDatabases())('pending webhook deliveries (%s)', (database) => {
  let w: TestWorld;
  let webhook: string;
  beforeAll(async () => {
    w = await testWorld({ database });
    const owner = (await w.db.prisma.owner.create({ data: { id: randomUUID(), name: 'Hooked' } })).id;
    webhook = randomUUID();
    await w.db.sql.query(
      `INSERT INTO webhooks (id, owner_id, sandbox, url, types, secret, scanned_seq) VALUES ($1, $2, false, 'https://example.com/h', '{}', 's', 0)`,
      [webhook, owner],
    );
  });
  afterAll(() => w.close());

  /** `n` deliveries in `state`, made `ageSeconds` ago. */
  const deliveries = (state: string, n: number, ageSeconds: number) =>
    w.db.sql.exec(`
      INSERT INTO webhook_deliveries (id, webhook_id, event_id, state, created_at, window_start, next_attempt_at)
      SELECT gen_random_uuid(), '${webhook}', gen_random_uuid(), '${state}', now() - interval '${ageSeconds} seconds', now(), now()
      FROM generate_series(1, ${n})`);

  it('counts the pending deliveries and the age of the oldest; none pending is 0 and 0', async () => {
    expect(await pendingDeliveries(w.db.prisma)).toEqual({ count: 0, oldestSeconds: 0 });
    await deliveries('succeeded', 3, 7200);
    await deliveries('failed', 2, 9000);
    expect(await pendingDeliveries(w.db.prisma)).toEqual({ count: 0, oldestSeconds: 0 });
    await deliveries('pending', 4, 60);
    await deliveries('pending', 1, 600);
    const pending = await pendingDeliveries(w.db.prisma);
    expect(pending.count).toBe(5);
    expect(pending.oldestSeconds).toBeGreaterThanOrEqual(600);
    expect(pending.oldestSeconds).toBeLessThan(660);
  });

  it('reads the pending rows by the index, not the finished ones kept', async () => {
    await deliveries('succeeded', 20_000, 3600);
    await w.db.sql.exec('ANALYZE webhook_deliveries');
    const plan = await explainAnalyzed(w.db.prisma, PENDING_DELIVERIES_SQL);
    const scans = planNodes(plan).filter((n) => n['Relation Name']);
    const read = scans.reduce((sum, n) => sum + (n['Actual Rows'] + (n['Rows Removed by Filter'] ?? 0)) * n['Actual Loops'], 0);
    expect(read).toBeLessThanOrEqual(10);
    expect((await pendingDeliveries(w.db.prisma)).count).toBe(5);
  });
});
