// The engine yields to the instance's requests (pace.ts), on both databases with a real receiver:
// while requests keep the instance busy it makes BUSY_RATE attempts a second, chains nothing and
// scans a few records at a time; once they ease, what waited goes out flat out, every record once.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendEvent } from '../events/append-event';
import { TEST_ACTOR } from '../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { createTestOwner } from '../testing/owner';
import { startReceiver } from '../testing/webhook-receiver';
import { createWebhook, type WebhookSettings } from './create-webhook';
import { startWebhooks } from './engine';
import { BUSY_RATE, BUSY_ROUND_MS, pace, WINDOW_MS } from './pace';
import { secretBox } from './secret-box';

const settings: WebhookSettings = { rules: { allowHttp: true, allowPrivate: true }, box: secretBox('p'.repeat(40)) };
const RECORDS = 300;

describe.each(testDatabases())('the webhook engine under requests on %s', (database) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await testWorld({ database });
  });
  afterAll(() => w?.close());

  it(`sends ${BUSY_RATE} a second while requests keep the instance busy, then the rest flat out`, async () => {
    const rx = await startReceiver();
    const chain = { ownerId: (await createTestOwner(w.db.prisma, 'Paced')).id, sandbox: false };
    await createWebhook({
      db: w.db.prisma,
      target: chain,
      input: { url: rx.url, types: ['entry.updated'], description: '' },
      actor: TEST_ACTOR,
      settings,
    });
    // two records an entry: a chain would send an entry's second at once after its first
    const entries = Array.from({ length: RECORDS / 2 }, () => randomUUID());
    for (const entryId of [...entries, ...entries])
      await appendEvent(w.db.prisma, { type: 'entry.updated', ...chain, actor: TEST_ACTOR, entryId, data: {} });
    // 32 requests in flight all the time, until the test says they ended
    let inFlight = 32;
    let load = 0;
    let at = performance.now();
    const requestLoad = () => {
      const t = performance.now();
      load += (t - at) * inFlight;
      at = t;
      return load;
    };
    const paced = pace({ load: requestLoad });
    // a window of requests before the engine starts: it starts busy
    await new Promise((r) => setTimeout(r, WINDOW_MS + 50));
    expect(paced.busy()).toBe(true);
    const stop = startWebhooks(w.db.prisma, settings, { pollMs: 50, pace: paced });
    try {
      const started = performance.now();
      await new Promise((r) => setTimeout(r, 2000));
      const busyFor = performance.now() - started;
      const sent = rx.received.length;
      const ceiling = (BUSY_RATE * busyFor) / 1000 + (BUSY_RATE * BUSY_ROUND_MS) / 1000;
      expect(sent).toBeGreaterThan(0);
      expect(sent).toBeLessThanOrEqual(ceiling);
      expect(sent).toBeLessThan(RECORDS);
      // the requests end: the rest go out flat out, each record once
      inFlight = 0;
      const eased = performance.now();
      await expect.poll(() => rx.received.length, { timeout: 15_000, interval: 20 }).toBe(RECORDS);
      expect(performance.now() - eased).toBeLessThan((((RECORDS - sent) / BUSY_RATE) * 1000) / 2);
      const ids = rx.received.map((r) => r.headers['webhook-id']);
      expect(new Set(ids).size).toBe(RECORDS);
      // per entry, in order
      const order = new Map<string, number[]>();
      for (const r of rx.received) {
        const e = JSON.parse(r.body) as { entry_id: string; seq: number };
        order.set(e.entry_id, [...(order.get(e.entry_id) ?? []), e.seq]);
      }
      for (const seqs of order.values()) expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    } finally {
      await stop();
      await rx.close();
    }
  });
});
