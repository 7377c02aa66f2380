// The delivery engine on both databases, to a real receiver on loopback (docs/api.md, Webhooks):
// the record as GET /silo/v1/events shows it, signed (standardwebhooks verifies it), retried on
// the schedule with a clock the test moves, Retry-After honoured, 410 and 5 days of failures
// disabling the endpoint, records of one entry in seq order while others do not wait, one
// instance per attempt, and a name that resolves to loopback at delivery refused.
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appendEvent } from '../events/append-event';
import { listEvents } from '../events/list-events';
import { TEST_ACTOR } from '../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { createTestOwner } from '../testing/owner';
import { type Receiver, startReceiver } from '../testing/webhook-receiver';
import type { Resolver } from './address-rules';
import { createWebhook, type WebhookSettings } from './create-webhook';
import { attemptDelivery, claimDeliveries } from './deliver';
import { listDeliveries, retryDelivery, sendTestMessage } from './deliveries';
import { deliverDue, startWebhooks } from './engine';
import { rotateWebhookSecret } from './rotate-webhook-secret';
import { scanEvents } from './scan-events';
import { updateWebhook } from './update-webhook';
import { DISABLE_AFTER_FAILING_MS, retryDelayMs } from './schedule';
import { secretBox } from './secret-box';

const settings: WebhookSettings = { rules: { allowHttp: true, allowPrivate: true }, box: secretBox('k'.repeat(40)) };
const S = 1000;

describe.each(testDatabases())('webhook deliveries on %s', (database) => {
  let w: TestWorld;
  let rx: Receiver;
  let chain: { ownerId: string; sandbox: boolean };
  let t: number;
  const now = () => new Date(t);
  const round = () => deliverDue(w.db.prisma, settings, { now, holder: randomUUID() });
  const event = (entryId: string | null, type: 'entry.updated' | 'file.stored' = 'entry.updated') =>
    appendEvent(w.db.prisma, { type, ...chain, actor: TEST_ACTOR, entryId, data: { n: Math.random() } });
  const hook = (types: string[] = ['*']) =>
    createWebhook({
      db: w.db.prisma,
      target: chain,
      input: { url: rx.url, types: types as ['*'], description: '' },
      actor: TEST_ACTOR,
      settings,
    });
  const deliveries = async (id: string) =>
    (await listDeliveries(w.db.prisma, { owners: [chain.ownerId] }, id, { limit: 100 })).list.reverse();

  beforeAll(async () => {
    w = await testWorld({ database });
  });
  afterAll(() => w?.close());
  beforeEach(async () => {
    rx = await startReceiver();
    chain = { ownerId: (await createTestOwner(w.db.prisma, 'Hooked')).id, sandbox: false };
    t = Date.now();
  });
  // one engine serves the whole database: no test's leftovers may be due in the next
  afterEach(async () => {
    await w.db.prisma.webhook.deleteMany({});
    await rx.close();
  });

  it('sends each record after its creation as the events API shows it, signed with the secret shown once', async () => {
    const h = await hook();
    expect(h.secret).toMatch(/^whsec_/);
    const stored = await w.db.prisma.webhook.findUniqueOrThrow({ where: { id: h.id } });
    expect(stored.secret).not.toContain(h.secret.slice(6, 20));
    const seq = await event(randomUUID());
    expect(await round()).toBe(1);
    expect(rx.received).toHaveLength(1);
    const [got] = rx.received;
    const [record] = (await listEvents(w.db.prisma, chain, { limit: 1, after: seq - 1 })).list;
    expect(got.body).toBe(JSON.stringify(record));
    expect(got.headers['webhook-id']).toBe(record.id);
    expect(new Webhook(h.secret).verify(got.body, got.headers as Record<string, string>)).toEqual(record);
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(got.body, got.headers as Record<string, string>),
    ).toThrow();
    const [d] = await deliveries(h.id);
    expect(d).toMatchObject({ state: 'succeeded', attempt_count: 1, event_id: record.id, type: 'entry.updated' });
    expect(d.attempts[0]).toMatchObject({ status: 204, error: null });
    // nothing more to send: the webhook.created record came before its cursor
    expect(await round()).toBe(0);
  });

  it('sends only the types asked for', async () => {
    const h = await hook(['file.stored']);
    await event(randomUUID(), 'entry.updated');
    await event(randomUUID(), 'file.stored');
    await round();
    expect(rx.received.map((r) => JSON.parse(r.body).type)).toEqual(['file.stored']);
    expect(await deliveries(h.id)).toHaveLength(1);
  });

  it('retries 5 s doubling to 1,280 s, then every 30 minutes, for 24 hours, with the same webhook-id', async () => {
    const h = await hook();
    rx.answer = () => ({ status: 500, body: 'x'.repeat(5000) });
    await event(randomUUID());
    await scanEvents(w.db.prisma, now());
    const start = t;
    const waits: number[] = [];
    let last = t;
    for (let i = 0; i < 200; i++) {
      const [d] = await deliveries(h.id);
      if (d.state !== 'pending') break;
      t = Date.parse(d.next_attempt_at as string);
      if (i > 0) waits.push(t - last);
      last = t;
      expect(await round()).toBe(1);
    }
    expect(waits.slice(0, 10)).toEqual([5, 10, 20, 40, 80, 160, 320, 640, 1280, 1800].map((s) => s * S));
    expect(waits.slice(9).every((w) => w === 1800 * S)).toBe(true);
    const [d] = await deliveries(h.id);
    expect(d.state).toBe('failed');
    expect(t - start).toBeLessThanOrEqual(24 * 3600 * S);
    expect(t - start + 1800 * S).toBeGreaterThan(24 * 3600 * S);
    expect(new Set(rx.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(rx.received).toHaveLength(d.attempt_count);
    expect(d.attempts[0].body).toHaveLength(1024);
    expect(retryDelayMs(1)).toBe(5 * S);
  });

  it('honours Retry-After, in seconds and as a date', async () => {
    const h = await hook();
    rx.answer = (_, n) =>
      n === 1
        ? { status: 503, headers: { 'Retry-After': '120' } }
        : { status: 429, headers: { 'Retry-After': new Date(t + 600 * S).toUTCString() } };
    await event(randomUUID());
    await round();
    let [d] = await deliveries(h.id);
    expect(Date.parse(d.next_attempt_at as string) - t).toBe(120 * S);
    t += 60 * S;
    expect(await round()).toBe(0);
    t += 60 * S;
    expect(await round()).toBe(1);
    [d] = await deliveries(h.id);
    expect(Math.abs(Date.parse(d.next_attempt_at as string) - t - 600 * S)).toBeLessThan(1000);
  });

  it('disables the endpoint at once on 410, with a webhook.updated record by the system', async () => {
    const h = await hook();
    rx.answer = () => ({ status: 410 });
    await event(randomUUID());
    await event(randomUUID());
    await round();
    const row = await w.db.prisma.webhook.findUniqueOrThrow({ where: { id: h.id } });
    expect(row).toMatchObject({ disabled: true, disabledReason: 'gone' });
    const last = await w.db.prisma.event.findFirstOrThrow({ where: { ownerId: chain.ownerId }, orderBy: { seq: 'desc' } });
    expect(last).toMatchObject({ type: 'webhook.updated', actor: { type: 'system', id: null, name: 'webhooks' } });
    const n = rx.received.length;
    t += 3600 * S;
    expect(await round()).toBe(0);
    expect(rx.received).toHaveLength(n);
  });

  it('disables an endpoint that has failed for 5 days', async () => {
    const h = await hook();
    rx.answer = () => ({ status: 500 });
    await event(randomUUID());
    await round();
    t += DISABLE_AFTER_FAILING_MS - S;
    await event(randomUUID());
    await round();
    expect((await w.db.prisma.webhook.findUniqueOrThrow({ where: { id: h.id } })).disabled).toBe(false);
    t += 2 * S;
    await event(randomUUID());
    await round();
    expect(await w.db.prisma.webhook.findUniqueOrThrow({ where: { id: h.id } })).toMatchObject({
      disabled: true,
      disabledReason: 'failing',
    });
  });

  it('forgets a failing streak at the first success, so a recovered endpoint is not disabled', async () => {
    const h = await hook();
    rx.answer = () => ({ status: 500 });
    await event(randomUUID());
    await round();
    const failing = async () => (await w.db.prisma.webhook.findUniqueOrThrow({ where: { id: h.id } })).failingSince;
    expect(await failing()).not.toBeNull();
    rx.answer = () => ({ status: 204 });
    t += 60 * S;
    await round();
    expect(await failing()).toBeNull();
    t += DISABLE_AFTER_FAILING_MS;
    rx.answer = () => ({ status: 500 });
    await event(randomUUID());
    await round();
    expect(await w.db.prisma.webhook.findUniqueOrThrow({ where: { id: h.id } })).toMatchObject({
      disabled: false,
      failingSince: new Date(t),
    });
  });

  it("keeps an entry's records in seq order while the first is retried; other entries do not wait", async () => {
    const h = await hook();
    const [a, b] = [randomUUID(), randomUUID()];
    const a1 = await event(a);
    const a2 = await event(a);
    const b1 = await event(b);
    const none = await event(null);
    let failedOnce = false;
    rx.answer = (r) => {
      if (JSON.parse(r.body).seq !== a1 || failedOnce) return { status: 204 };
      failedOnce = true;
      return { status: 500 };
    };
    await round();
    const seqs = () => rx.received.map((r) => JSON.parse(r.body).seq as number);
    // the first attempt of a1 failed; b1 and the entry-less record went; a2 waits
    expect(seqs()).toEqual(expect.arrayContaining([a1, b1, none]));
    expect(seqs()).not.toContain(a2);
    expect(await round()).toBe(0);
    t += 5 * S;
    await round();
    await round();
    expect(seqs().filter((s) => s === a1 || s === a2)).toEqual([a1, a1, a2]);
    expect((await deliveries(h.id)).every((d) => d.state === 'succeeded')).toBe(true);
  });

  it('lets one instance send each attempt: a lease, and a holder that lost it records nothing', async () => {
    await hook();
    await event(randomUUID());
    await scanEvents(w.db.prisma, now());
    const [one, two] = [randomUUID(), randomUUID()];
    const got = await claimDeliveries(w.db.prisma, one, now(), 10, 30 * S);
    expect(got).toHaveLength(1);
    expect(await claimDeliveries(w.db.prisma, two, now(), 10, 30 * S)).toEqual([]);
    // the first holder stalls past its lease; the second sends and records
    t += 31 * S;
    const again = await claimDeliveries(w.db.prisma, two, now(), 10, 30 * S);
    expect(again.map((d) => d.id)).toEqual(got.map((d) => d.id));
    await attemptDelivery({ db: w.db.prisma, settings, holder: two, now }, again[0]);
    await attemptDelivery({ db: w.db.prisma, settings, holder: one, now }, got[0]);
    expect(rx.received.map((r) => r.headers['webhook-id'])).toEqual([got[0].eventId, got[0].eventId]);
    const rows = await w.db.prisma.webhookAttempt.findMany({ where: { deliveryId: got[0].id } });
    expect(rows).toHaveLength(1);
  });

  it('signs with the old and the new secret for 24 hours after a rotation', async () => {
    const h = await hook();
    const rotated = await rotateWebhookSecret({
      db: w.db.prisma,
      scope: { owners: [chain.ownerId] },
      id: h.id,
      actor: TEST_ACTOR,
      settings,
      now: now(),
    });
    expect(rotated.secret).not.toBe(h.secret);
    expect(Date.parse(rotated.previous_secret_until as string) - t).toBe(24 * 3600 * S);
    await event(randomUUID());
    await round();
    // the webhook.secret_rotated record and the entry's
    expect(rx.received).toHaveLength(2);
    const got = rx.received[1];
    expect((got.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
    for (const secret of [h.secret, rotated.secret])
      expect(new Webhook(secret).verify(got.body, got.headers as Record<string, string>)).toBeTruthy();
    // after the 24 hours only the new one signs (the signature's time is the clock's, so no verify here)
    t += 24 * 3600 * S + S;
    await event(randomUUID());
    await round();
    expect(rx.received).toHaveLength(3);
    expect((rx.received[2].headers['webhook-signature'] as string).split(' ')).toHaveLength(1);
  });

  it('sends a test message, and a failed delivery again on request', async () => {
    const h = await hook();
    const scope = { owners: [chain.ownerId] };
    const test = await sendTestMessage(w.db.prisma, scope, h.id, TEST_ACTOR, now());
    rx.answer = () => ({ status: 400, body: 'nope' });
    await round();
    expect(JSON.parse(rx.received[0].body)).toMatchObject({ id: test.event_id, type: 'webhook.test', data: { webhook_id: h.id } });
    let [d] = await deliveries(h.id);
    expect(d).toMatchObject({ type: 'webhook.test', state: 'pending', attempts: [{ status: 400, body: 'nope' }] });
    rx.answer = () => ({ status: 200 });
    t += S;
    d = await retryDelivery(w.db.prisma, scope, h.id, d.id, now());
    expect(Date.parse(d.next_attempt_at as string)).toBe(t);
    await round();
    [d] = await deliveries(h.id);
    expect(d.state).toBe('succeeded');
  });

  it('refuses a PATCH to a private address as creation does, and keeps the endpoint as it was', async () => {
    const resolve: Resolver = async (host) => [{ address: host === 'inside.test' ? '10.0.0.7' : '93.184.215.14', family: 4 }];
    const strict: WebhookSettings = { rules: { allowHttp: false, allowPrivate: false }, box: settings.box, resolve };
    const h = await createWebhook({
      db: w.db.prisma,
      target: chain,
      input: { url: 'https://outside.test/hook', types: ['*'], description: '' },
      actor: TEST_ACTOR,
      settings: strict,
    });
    const scope = { owners: [chain.ownerId] };
    for (const url of ['https://inside.test/hook', 'http://outside.test/hook', 'https://[::ffff:a00:1]/hook'])
      await expect(
        updateWebhook({ db: w.db.prisma, scope, id: h.id, patch: { url }, actor: TEST_ACTOR, settings: strict }),
      ).rejects.toMatchObject({
        name: 'ApiError',
        status: 422,
      });
    expect((await w.db.prisma.webhook.findUniqueOrThrow({ where: { id: h.id } })).url).toBe('https://outside.test/hook');
  });

  it('refuses a name that resolves to loopback at delivery, though it resolved elsewhere at creation', async () => {
    let answers = 0;
    const resolve: Resolver = async () => [{ address: answers++ === 0 ? '93.184.215.14' : '127.0.0.1', family: 4 }];
    const strict: WebhookSettings = { rules: { allowHttp: true, allowPrivate: false }, box: settings.box, resolve };
    const port = new URL(rx.url).port;
    const h = await createWebhook({
      db: w.db.prisma,
      target: chain,
      input: { url: `http://rebinding.test:${port}/hook`, types: ['*'], description: '' },
      actor: TEST_ACTOR,
      settings: strict,
    });
    await event(randomUUID());
    await deliverDue(w.db.prisma, strict, { now });
    expect(rx.received).toHaveLength(0);
    const [d] = await deliveries(h.id);
    expect(d.attempts[0]).toMatchObject({ status: null, error: expect.stringMatching(/refused address \(127\.0\.0\.1\)/) });
  });
});

describe.each(testDatabases())('the running engine on %s', (database) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await testWorld({ database });
  });
  afterAll(() => w?.close());

  it("sends other endpoints' records while one endpoint holds its attempt open", async () => {
    const [slow, fast] = [await startReceiver(), await startReceiver()];
    slow.answer = () => ({ status: 204, delayMs: 120_000 }); // answers when the test closes it
    const chain = { ownerId: (await createTestOwner(w.db.prisma, 'Engine')).id, sandbox: false };
    for (const rx of [slow, fast])
      await createWebhook({
        db: w.db.prisma,
        target: chain,
        input: { url: rx.url, types: ['entry.updated'], description: '' },
        actor: TEST_ACTOR,
        settings,
      });
    const stop = startWebhooks(w.db.prisma, settings, { pollMs: 50 });
    try {
      await appendEvent(w.db.prisma, { type: 'entry.updated', ...chain, actor: TEST_ACTOR, entryId: randomUUID(), data: {} });
      await expect.poll(() => fast.received.length, { timeout: 3000, interval: 20 }).toBe(1);
      await expect.poll(() => slow.received.length, { timeout: 3000, interval: 20 }).toBe(1);
      // a second record: the fast endpoint gets it while the slow one's first attempt is still open
      await appendEvent(w.db.prisma, { type: 'entry.updated', ...chain, actor: TEST_ACTOR, entryId: randomUUID(), data: {} });
      await expect.poll(() => fast.received.length, { timeout: 3000, interval: 20 }).toBe(2);
      expect(slow.received[0].open).toBe(true);
    } finally {
      await slow.close(); // ends the attempt it holds: the engine's stop waits for it
      await stop();
      await fast.close();
    }
  });
});
