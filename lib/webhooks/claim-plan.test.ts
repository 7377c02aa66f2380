// The claim's cost does not grow with an entry's finished deliveries, nor with the records queued
// behind its head (deliver.ts, claimSql): a file replaced all day gives its entry thousands of
// succeeded deliveries, and its writes outrunning the receiver thousands of pending ones; a plan that
// read them would make every claim slower than the last (400 ms each, under the small-request bench).
// Statistics as the embedded database has them (it has no autovacuum): none. And neither the claim
// nor the scan is ever prepared: a generic plan made while the queue was empty, kept for the
// connection's life, walked every pending delivery once thousands waited (prepared.ts).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import { isPrepared } from '../db/prepared';
import { TEST_ACTOR } from '../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { createTestOwner } from '../testing/owner';
import { createWebhook, type WebhookSettings } from './create-webhook';
import { claimDeliveries, claimSql } from './deliver';
import { scanEvents, scanSql } from './scan-events';
import { secretBox } from './secret-box';

const settings: WebhookSettings = { rules: { allowHttp: true, allowPrivate: true }, box: secretBox('k'.repeat(40)) };

/** A new workspace with an endpoint on `*` (never sent to: the tests only claim). */
async function hookedWorkspace(db: Db, name: string) {
  const chain = { ownerId: (await createTestOwner(db, name)).id, sandbox: false };
  return createWebhook({
    db,
    target: chain,
    input: { url: 'http://127.0.0.1:9/hook', types: ['*'], description: '' },
    actor: TEST_ACTOR,
    settings,
  });
}

describe.each(testDatabases())('the webhook claim on %s', (database) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await testWorld({ database });
  });
  afterAll(() => w?.close());

  it("reads only pending deliveries to decide an entry's next, however many have finished", async () => {
    const db = w.db.prisma;
    const hook = await hookedWorkspace(db, 'Busy entry');
    const entry = randomUUID();
    const finished = 20_000;
    // An entry whose file was replaced all day: its records delivered, then two pending.
    await db.$executeRaw`
      INSERT INTO webhook_deliveries (id, webhook_id, event_id, seq, entry_id, state, attempts, created_at, window_start, next_attempt_at, finished_at)
      SELECT gen_random_uuid(), ${hook.id}::uuid, gen_random_uuid(), g, ${entry}::uuid,
             CASE WHEN g <= ${finished} THEN 'succeeded' ELSE 'pending' END, 1, now(), now(), now(),
             CASE WHEN g <= ${finished} THEN now() END
        FROM generate_series(1, ${finished + 2}) g`;
    const now = new Date(Date.now() + 1000);
    const rows = await db.$queryRaw<{ 'QUERY PLAN': string }[]>`EXPLAIN (ANALYZE, FORMAT TEXT) ${claimSql(randomUUID(), now, 16)}`;
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    // No node of the plan read the finished deliveries: every row count stays small.
    const counts = [...plan.matchAll(/actual time=[\d.]+\.\.[\d.]+ rows=(\d+) loops=(\d+)/g)].map((m) => Number(m[1]) * Number(m[2]));
    expect(Math.max(...counts), plan).toBeLessThan(100);
    await db.$executeRaw`UPDATE webhook_deliveries SET lease_holder = NULL, lease_until = NULL WHERE webhook_id = ${hook.id}::uuid`;
    // And the claim itself: the entry's first pending record, not the one after it.
    const claimed = await claimDeliveries(db, randomUUID(), now, 16);
    expect(claimed.map((c) => c.webhookId)).toEqual([hook.id]);
    const [row] = await db.webhookDelivery.findMany({ where: { id: claimed[0].id } });
    expect(Number(row.seq)).toBe(finished + 1);
    await db.webhook.delete({ where: { id: hook.id } });
  });

  it('reads no record queued behind its entry’s head, however many wait there, and sends the other entries’', async () => {
    const db = w.db.prisma;
    const hook = await hookedWorkspace(db, 'Hot entry');
    const [hot, quiet] = [randomUUID(), randomUUID()];
    const queued = 20_000;
    // One entry's writes outran the receiver: its first record in flight (leased), the rest behind it.
    await db.$executeRaw`
      INSERT INTO webhook_deliveries (id, webhook_id, event_id, seq, entry_id, state, attempts, created_at, window_start, next_attempt_at, lease_holder, lease_until)
      SELECT gen_random_uuid(), ${hook.id}::uuid, gen_random_uuid(), g, ${hot}::uuid, 'pending', 0, now(), now(), now(),
             CASE WHEN g = 1 THEN gen_random_uuid() END, CASE WHEN g = 1 THEN now() + interval '1 hour' END
        FROM generate_series(1, ${queued}) g`;
    await db.$executeRaw`
      INSERT INTO webhook_deliveries (id, webhook_id, event_id, seq, entry_id, state, attempts, created_at, window_start, next_attempt_at)
      VALUES (gen_random_uuid(), ${hook.id}::uuid, gen_random_uuid(), ${queued + 1}, ${quiet}::uuid, 'pending', 0, now(), now(), now())`;
    const now = new Date(Date.now() + 1000);
    const rows = await db.$queryRaw<{ 'QUERY PLAN': string }[]>`EXPLAIN (ANALYZE, FORMAT TEXT) ${claimSql(randomUUID(), now, 16)}`;
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    const counts = [...plan.matchAll(/actual time=[\d.]+\.\.[\d.]+ rows=([\d.]+) loops=(\d+)/g)].map((m) => Number(m[1]) * Number(m[2]));
    expect(Math.max(...counts), plan).toBeLessThan(100);
    await db.$executeRaw`UPDATE webhook_deliveries SET lease_holder = NULL, lease_until = NULL WHERE webhook_id = ${hook.id}::uuid AND entry_id = ${quiet}::uuid`;
    // the quiet entry's record goes; nothing of the hot entry's while its head is in flight
    const claimed = await claimDeliveries(db, randomUUID(), now, 16);
    expect(claimed.map((c) => c.entryId)).toEqual([quiet]);
    await db.webhook.delete({ where: { id: hook.id } });
  });

  it('is planned for its values on every run, as the scan is: neither is ever prepared', async () => {
    const db = w.db.prisma;
    const target = { ownerId: (await createTestOwner(db, 'Planned')).id, sandbox: false };
    const endpoint = (url: string) =>
      createWebhook({ db, target, input: { url, types: ['*'], description: '' }, actor: TEST_ACTOR, settings });
    // the first endpoint gets the records after its own: the second's webhook.created
    const hook = await endpoint('http://127.0.0.1:9/hook');
    const other = await endpoint('http://127.0.0.1:9/other');
    const claimed: string[] = [];
    // more runs than PostgreSQL plans for their values before it may keep a generic plan (five)
    for (let i = 0; i < 8; i++) {
      await scanEvents(db, new Date());
      claimed.push(...(await claimDeliveries(db, randomUUID(), new Date(), 16)).map((c) => c.webhookId));
    }
    // both statements did their work: the scan made the delivery, a claim leased it (once)
    expect(claimed).toEqual([hook.id]);
    expect(isPrepared(claimSql(randomUUID(), new Date(), 16).text)).toBe(false);
    expect(isPrepared(scanSql(new Date()).text)).toBe(false);
    await db.webhook.deleteMany({ where: { id: { in: [hook.id, other.id] } } });
  });
});
