// Successes recorded together (record-successes.ts): many attempts that succeed at once are
// recorded by a few statements, each delivery with its own attempt and each entry's next record
// handed to the chain it follows; a delivery whose lease another holder took is left as that
// holder has it; a failed statement fails every success it carried. Both databases.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import { TEST_ACTOR } from '../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { createTestOwner } from '../testing/owner';
import { createWebhook, type WebhookSettings } from './create-webhook';
import { claimDeliveries } from './deliver';
import { SUCCESSES_PER_STATEMENT, successRecorder } from './record-successes';
import { secretBox } from './secret-box';
import type { SendResult } from './send-webhook';

const settings: WebhookSettings = { rules: { allowHttp: true, allowPrivate: true }, box: secretBox('k'.repeat(40)) };
const ok: SendResult = { status: 204, durationMs: 3, body: '', error: null };

/** The client, counting the statements sent through $queryRaw. */
function counting(db: Db) {
  const counter = { statements: 0 };
  const proxy = new Proxy(db, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (key !== '$queryRaw') return value;
      return (...args: unknown[]) => {
        counter.statements++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { db: proxy, counter };
}

describe.each(testDatabases())('successes recorded together on %s', (database) => {
  let w: TestWorld;
  let hookId: string;
  const now = () => new Date(Date.now() + 1000);

  beforeAll(async () => {
    w = await testWorld({ database });
  });
  afterAll(() => w?.close());
  beforeEach(async () => {
    await w.db.prisma.webhook.deleteMany({});
    const chain = { ownerId: (await createTestOwner(w.db.prisma, 'Batched')).id, sandbox: false };
    hookId = (
      await createWebhook({
        db: w.db.prisma,
        target: chain,
        input: { url: 'http://127.0.0.1:9/hook', types: ['*'], description: '' },
        actor: TEST_ACTOR,
        settings,
      })
    ).id;
  });

  /** `entries` entries with `each` pending records apiece (seq 1…each per entry, in turn). */
  async function pending(entries: number, each: number) {
    const ids = Array.from({ length: entries }, () => randomUUID());
    await w.db.prisma.$executeRaw`
      INSERT INTO webhook_deliveries (id, webhook_id, event_id, seq, entry_id, state, attempts, created_at, window_start, next_attempt_at)
      SELECT gen_random_uuid(), ${hookId}::uuid, gen_random_uuid(), (e.n - 1) * ${each}::int + g, e.id, 'pending', 0, now(), now(), now()
        FROM unnest(${ids}::uuid[]) WITH ORDINALITY AS e(id, n), generate_series(1, ${each}::int) g`;
    return ids;
  }

  it('records 150 successes in a few statements, each with its attempt and its own successor', async () => {
    const entries = await pending(150, 2);
    const holder = randomUUID();
    const claimed = await claimDeliveries(w.db.prisma, holder, now(), 500);
    expect(claimed).toHaveLength(150);
    const { db, counter } = counting(w.db.prisma);
    const recorder = successRecorder(db, holder, now);
    const next = await Promise.all(claimed.map((d) => recorder.record({ delivery: d, at: new Date(), result: ok, chain: true })));
    // two statements start at once; the rest wait for them and go together
    expect(counter.statements).toBeLessThanOrEqual(4);
    // each chain gets its entry's second record, leased to it
    for (const [i, d] of claimed.entries()) {
      expect(next[i]?.entryId).toBe(d.entryId);
      expect(next[i]?.seq).toBe((d.seq ?? 0n) + 1n);
    }
    expect(new Set(next.map((n) => n?.entryId))).toEqual(new Set(entries));
    const rows = await w.db.prisma.webhookDelivery.findMany({ where: { webhookId: hookId } });
    expect(
      rows
        .filter((r) => r.state === 'succeeded')
        .map((r) => r.id)
        .sort(),
    ).toEqual(claimed.map((d) => d.id).sort());
    expect(rows.filter((r) => r.state === 'pending').every((r) => r.leaseHolder === holder)).toBe(true);
    const attempts = await w.db.prisma.webhookAttempt.findMany({ where: { deliveryId: { in: claimed.map((d) => d.id) } } });
    expect(attempts).toHaveLength(150);
    expect(attempts.every((a) => a.status === 204 && a.durationMs === 3)).toBe(true);
  });

  it('leases no successor when the chain stops, and splits more than a statement takes', async () => {
    await pending(SUCCESSES_PER_STATEMENT + 50, 2);
    const holder = randomUUID();
    const claimed = await claimDeliveries(w.db.prisma, holder, now(), 1000);
    const { db, counter } = counting(w.db.prisma);
    const recorder = successRecorder(db, holder, now);
    const next = await Promise.all(claimed.map((d) => recorder.record({ delivery: d, at: new Date(), result: ok, chain: false })));
    expect(next.every((n) => n === undefined)).toBe(true);
    expect(counter.statements).toBeGreaterThanOrEqual(2);
    const leased = await w.db.prisma.webhookDelivery.count({ where: { webhookId: hookId, state: 'pending', leaseHolder: { not: null } } });
    expect(leased).toBe(0);
  });

  it('leaves a delivery whose lease another holder took as that holder has it, and records the others', async () => {
    await pending(3, 2);
    const holder = randomUUID();
    const claimed = await claimDeliveries(w.db.prisma, holder, now(), 10);
    const other = randomUUID();
    await w.db.prisma.webhookDelivery.update({ where: { id: claimed[1].id }, data: { leaseHolder: other } });
    const recorder = successRecorder(w.db.prisma, holder, now);
    const next = await Promise.all(claimed.map((d) => recorder.record({ delivery: d, at: new Date(), result: ok, chain: true })));
    expect(next[1]).toBeUndefined();
    expect(next[0]).toBeDefined();
    expect(next[2]).toBeDefined();
    const taken = await w.db.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: claimed[1].id } });
    expect([taken.state, taken.leaseHolder]).toEqual(['pending', other]);
    expect(await w.db.prisma.webhookAttempt.count({ where: { deliveryId: claimed[1].id } })).toBe(0);
    // its entry's next record stays where it was: not leased behind the taken one
    const after = await w.db.prisma.webhookDelivery.findFirstOrThrow({
      where: { webhookId: hookId, entryId: claimed[1].entryId, seq: { gt: claimed[1].seq ?? 0n } },
    });
    expect(after.leaseHolder).toBeNull();
  });

  it('fails every success a failed statement carried, and records the next ones', async () => {
    await pending(2, 1);
    const holder = randomUUID();
    const claimed = await claimDeliveries(w.db.prisma, holder, now(), 10);
    let broken = true;
    const db = new Proxy(w.db.prisma, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (key !== '$queryRaw' || !broken) return value;
        return () => Promise.reject(new Error('the database went away'));
      },
    });
    const recorder = successRecorder(db, holder, now);
    const failed = await Promise.allSettled(claimed.map((d) => recorder.record({ delivery: d, at: new Date(), result: ok, chain: false })));
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    broken = false;
    await Promise.all(claimed.map((d) => recorder.record({ delivery: d, at: new Date(), result: ok, chain: false })));
    expect(await w.db.prisma.webhookDelivery.count({ where: { webhookId: hookId, state: 'succeeded' } })).toBe(2);
  });
});
