// Webhooks fair between workspaces (docs/api.md, Webhooks): one workspace's endpoints that never
// answer, with a backlog, hold at most its share of the instance's attempts, and another
// workspace's record goes out in the next round; the claim takes workspaces in turn.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import { appendEvent } from '../events/append-event';
import { TEST_ACTOR } from '../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { createTestOwner } from '../testing/owner';
import { type Receiver, startReceiver } from '../testing/webhook-receiver';
import { createWebhook, type WebhookSettings } from './create-webhook';
import { claimDeliveries, workspaceCap } from './deliver';
import { CONCURRENCY, startWebhooks } from './engine';
import { scanEvents } from './scan-events';
import { secretBox } from './secret-box';

const settings: WebhookSettings = { rules: { allowHttp: true, allowPrivate: true }, box: secretBox('k'.repeat(40)) };

async function workspace(db: Db, name: string) {
  return { ownerId: (await createTestOwner(db, name)).id, sandbox: false };
}

const endpoint = (db: Db, chain: { ownerId: string; sandbox: boolean }, url: string) =>
  createWebhook({ db, target: chain, input: { url, types: ['entry.updated'], description: '' }, actor: TEST_ACTOR, settings });

const records = async (db: Db, chain: { ownerId: string; sandbox: boolean }, n: number) => {
  for (let i = 0; i < n; i++)
    await appendEvent(db, { type: 'entry.updated', ...chain, actor: TEST_ACTOR, entryId: randomUUID(), data: {} });
};

describe.each(testDatabases())('webhooks fair between workspaces on %s', (database) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await testWorld({ database });
  });
  afterAll(() => w?.close());

  it("sends a workspace's record within a round while another's 8 endpoints hang with 80 records each", async () => {
    const db = w.db.prisma;
    const hanging: Receiver[] = [];
    const healthy = await startReceiver();
    const stop = startWebhooks(db, settings, { pollMs: 100 });
    try {
      const a = await workspace(db, 'Hanging');
      for (let i = 0; i < 8; i++) {
        const rx = await startReceiver();
        // accepts the request and never answers within the attempt's 15 s
        rx.answer = () => ({ status: 204, delayMs: 120_000 });
        hanging.push(rx);
        await endpoint(db, a, rx.url);
      }
      await records(db, a, 80);
      const heldByA = () => hanging.reduce((n, rx) => n + rx.received.length, 0);
      // A's endpoints hold their attempts open: as many as the instance lets one workspace have
      await expect.poll(heldByA, { timeout: 10_000, interval: 50 }).toBeGreaterThanOrEqual(workspaceCap(CONCURRENCY));
      const b = await workspace(db, 'Healthy');
      await endpoint(db, b, healthy.url);
      await records(db, b, 1);
      await expect.poll(() => healthy.received.length, { timeout: 5_000, interval: 20 }).toBe(1);
      // while every one of A's attempts is still open: not after they time out (15 s)
      expect(hanging.flatMap((rx) => rx.received).filter((r) => r.open)).toHaveLength(workspaceCap(CONCURRENCY));
      // and A never went past its share meanwhile
      expect(heldByA()).toBe(workspaceCap(CONCURRENCY));
    } finally {
      for (const rx of hanging) await rx.close();
      await stop();
      await healthy.close();
      await db.webhook.deleteMany({});
    }
  });

  it('claims workspaces in turn, each up to its share, and none past it', async () => {
    const db = w.db.prisma;
    const [a, b, c] = [await workspace(db, 'A'), await workspace(db, 'B'), await workspace(db, 'C')];
    const hooks = new Map<string, string>();
    for (const [name, chain] of [
      ['a', a],
      ['b', b],
      ['c', c],
    ] as const)
      hooks.set((await endpoint(db, chain, `http://127.0.0.1:9/${name}`)).id, name);
    // A's backlog is older than B's and C's records: by age alone it would take every slot
    await records(db, a, 20);
    await records(db, b, 2);
    await records(db, c, 1);
    await scanEvents(db, new Date());
    const now = new Date(Date.now() + 1000);
    const names = (claimed: { webhookId: string }[]) => claimed.map((d) => hooks.get(d.webhookId)).sort();
    // 6 slots, 3 a workspace: B's two and C's one come before the rest of A's
    expect(names(await claimDeliveries(db, randomUUID(), now, 6, undefined, { inFlight: new Map(), cap: 3 }))).toEqual([
      'a',
      'a',
      'a',
      'b',
      'b',
      'c',
    ]);
    // A with its share in flight gets nothing more, however much is due and however many slots
    expect(names(await claimDeliveries(db, randomUUID(), now, 10, undefined, { inFlight: new Map([[a.ownerId, 3]]), cap: 3 }))).toEqual([]);
    expect(names(await claimDeliveries(db, randomUUID(), now, 10, undefined, { inFlight: new Map([[a.ownerId, 1]]), cap: 3 }))).toEqual([
      'a',
      'a',
    ]);
    await db.webhook.deleteMany({});
  });
});
