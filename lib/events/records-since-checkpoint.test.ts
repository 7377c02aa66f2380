// The records no signed checkpoint covers yet, every chain together (the metrics'
// silo_event_records_since_checkpoint): what appends add and a checkpoint takes away, and a read
// whose cost is one look-up per chain, however many checkpoints were made (EXPLAIN ANALYZE).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { explainAnalyzed, planNodes } from '../testing/plan-nodes';
import { appendEvent } from './append-event';
import { systemActor } from './catalogue';
import { checkpointChains } from './checkpoints';
import { RECORDS_SINCE_CHECKPOINT_SQL, recordsSinceCheckpoint } from './records-since-checkpoint';
import { loadedAuditKey } from './signing-key';

describe.each(testDatabases())('records since the last checkpoint (%s)', (database) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await testWorld({ database });
  });
  afterAll(() => w.close());

  const append = (ownerId: string, sandbox: boolean, n: number) =>
    (async () => {
      for (let i = 0; i < n; i++)
        await appendEvent(w.db.prisma, { type: 'entry.created', ownerId, sandbox, actor: systemActor('test'), data: {} });
    })();

  it('counts the records of every chain past its last checkpoint, and a checkpoint takes them away', async () => {
    const key = loadedAuditKey();
    await checkpointChains(w.db.prisma, key);
    expect(await recordsSinceCheckpoint(w.db.prisma)).toBe(0);
    const a = (await w.db.prisma.owner.create({ data: { id: randomUUID(), name: 'A' } })).id;
    const b = (await w.db.prisma.owner.create({ data: { id: randomUUID(), name: 'B' } })).id;
    await append(a, false, 3);
    await append(a, true, 2);
    await append(b, false, 4);
    expect(await recordsSinceCheckpoint(w.db.prisma)).toBe(9);
    await checkpointChains(w.db.prisma, key, new Date(), { ownerId: b, sandbox: false });
    expect(await recordsSinceCheckpoint(w.db.prisma)).toBe(5);
    await append(b, false, 1);
    expect(await recordsSinceCheckpoint(w.db.prisma)).toBe(6);
    await checkpointChains(w.db.prisma, key);
    expect(await recordsSinceCheckpoint(w.db.prisma)).toBe(0);
  });

  it("reads each chain's head and its last checkpoint by the primary key, not every checkpoint", async () => {
    // 20 chains with 500 checkpoints each, made by SQL (a signature's value is not read here).
    await w.db.sql.exec(`
      WITH o AS (INSERT INTO owners (id, name) SELECT gen_random_uuid(), 'p' FROM generate_series(1, 20) RETURNING id),
        h AS (INSERT INTO chain_heads (owner_id, sandbox, seq, hash) SELECT id, false, 1000, 'h' FROM o RETURNING owner_id)
      INSERT INTO checkpoints (owner_id, sandbox, seq, hash, at, key_id, signature)
      SELECT owner_id, false, g, 'h', now(), 'k', 's' FROM h, generate_series(1, 500) g`);
    for (const t of ['chain_heads', 'checkpoints']) await w.db.sql.exec(`ANALYZE ${t}`);
    const plan = await explainAnalyzed(w.db.prisma, RECORDS_SINCE_CHECKPOINT_SQL);
    const scans = planNodes(plan).filter((n) => n['Relation Name']);
    const read = scans.reduce((sum, n) => sum + (n['Actual Rows'] + (n['Rows Removed by Filter'] ?? 0)) * n['Actual Loops'], 0);
    const chains = await w.db.prisma.chainHead.count();
    expect(read).toBeLessThanOrEqual(2 * chains + 5);
    expect(await recordsSinceCheckpoint(w.db.prisma)).toBe(20 * 500);
  });
});
