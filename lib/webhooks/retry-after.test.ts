// A receiver's Retry-After lengthens the schedule's step, never shortens it (docs/api.md, Webhooks):
// 0, negative, a past date or garbage wait the step; a longer one is honoured. On both databases,
// to a real receiver, with the clock the engine runs on moved by the test (nothing waits for it).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendEvent } from '../events/append-event';
import { TEST_ACTOR } from '../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { createTestOwner } from '../testing/owner';
import { startReceiver } from '../testing/webhook-receiver';
import { createWebhook, type WebhookSettings } from './create-webhook';
import { listDeliveries } from './deliveries';
import { deliverDue } from './engine';
import { nextAttemptAt, retryAfterMs, retryDelayMs } from './schedule';
import { secretBox } from './secret-box';

const settings: WebhookSettings = { rules: { allowHttp: true, allowPrivate: true }, box: secretBox('k'.repeat(40)) };
const S = 1000;

describe('Retry-After against the schedule', () => {
  const now = new Date('2026-11-28T12:00:00Z');
  const waitFor = (header: string | undefined, failed: number) =>
    nextAttemptAt(failed, now, now, retryAfterMs(header, now))!.getTime() - now.getTime();

  it('raises a Retry-After below the step to the step: 0, negative, past, garbage, absent', () => {
    for (const failed of [1, 4, 9, 12])
      for (const header of ['0', '-5', '-1000', '1', new Date(now.getTime() - 3600 * S).toUTCString(), 'soon', '', undefined, '1e9x'])
        expect(waitFor(header, failed), `${header} after ${failed}`).toBe(retryDelayMs(failed));
  });

  it('honours a Retry-After above the step, in seconds or as a date, within the 24 hours', () => {
    expect(waitFor('120', 1)).toBe(120 * S);
    expect(waitFor(new Date(now.getTime() + 600 * S).toUTCString(), 2)).toBe(600 * S);
    // above the step at the 9th failure (1,280 s) too
    expect(waitFor('3600', 9)).toBe(3600 * S);
    // past the 24 hours: given up
    expect(nextAttemptAt(1, now, now, retryAfterMs(String(25 * 3600), now))).toBeUndefined();
  });
});

describe.each(testDatabases())('Retry-After at delivery on %s', (database) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await testWorld({ database });
  });
  afterAll(() => w?.close());

  it("waits the schedule's 5 s, 10 s, 20 s … for a receiver answering Retry-After: 0, -1, a past date, garbage", async () => {
    const rx = await startReceiver();
    let t = Date.now();
    const now = () => new Date(t);
    const headers = ['0', '-1', new Date(t - 3600 * S).toUTCString(), 'whenever', '0'];
    rx.answer = (_, n) => ({ status: 503, headers: { 'Retry-After': headers[n - 1] ?? '0' } });
    const chain = { ownerId: (await createTestOwner(w.db.prisma, 'Impatient')).id, sandbox: false };
    try {
      const hook = await createWebhook({
        db: w.db.prisma,
        target: chain,
        input: { url: rx.url, types: ['*'], description: '' },
        actor: TEST_ACTOR,
        settings,
      });
      await appendEvent(w.db.prisma, { type: 'entry.updated', ...chain, actor: TEST_ACTOR, entryId: randomUUID(), data: {} });
      const waits: number[] = [];
      for (let i = 0; i < headers.length; i++) {
        expect(await deliverDue(w.db.prisma, settings, { now, holder: randomUUID() })).toBe(1);
        const [d] = (await listDeliveries(w.db.prisma, { owners: [chain.ownerId] }, hook.id, { limit: 1 })).list;
        const next = Date.parse(d.next_attempt_at as string);
        waits.push(next - t);
        // a second before it is due, nothing goes
        t = next - 1000;
        expect(await deliverDue(w.db.prisma, settings, { now, holder: randomUUID() })).toBe(0);
        t = next;
      }
      expect(waits).toEqual([5, 10, 20, 40, 80].map((s) => s * S));
      expect(rx.received).toHaveLength(headers.length);
    } finally {
      await w.db.prisma.webhook.deleteMany({});
      await rx.close();
    }
  });
});
