// An entry's records in a chain (deliver.ts, attemptDelivery): after a success the entry's next
// record is leased by the statement that records it and sent at once, so an entry's records follow
// one another at the receiver's pace within one round — in seq order, stopping at a failure, and
// at most CHAIN_MAX of them before a round gives the others their turn; over connections kept open
// between attempts. Both databases, a real receiver on loopback.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appendEvent } from '../events/append-event';
import { TEST_ACTOR } from '../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { createTestOwner } from '../testing/owner';
import { type Receiver, startReceiver } from '../testing/webhook-receiver';
import { createWebhook, type WebhookSettings } from './create-webhook';
import { CHAIN_MAX } from './deliver';
import { deliverDue } from './engine';
import { secretBox } from './secret-box';

const settings: WebhookSettings = { rules: { allowHttp: true, allowPrivate: true }, box: secretBox('k'.repeat(40)) };

describe.each(testDatabases())('an entry’s records in a chain on %s', (database) => {
  let w: TestWorld;
  let rx: Receiver;
  let chain: { ownerId: string; sandbox: boolean };
  let t: number;
  const now = () => new Date(t);
  const round = () => deliverDue(w.db.prisma, settings, { now, holder: randomUUID() });
  const event = (entryId: string | null) =>
    appendEvent(w.db.prisma, { type: 'entry.updated', ...chain, actor: TEST_ACTOR, entryId, data: {} });
  const seqs = () => rx.received.map((r) => JSON.parse(r.body).seq as number);
  const state = async () =>
    (await w.db.prisma.webhookDelivery.findMany({ orderBy: { seq: 'asc' } })).map((d) => [Number(d.seq), d.state, d.leaseHolder]);

  beforeAll(async () => {
    w = await testWorld({ database });
  });
  afterAll(() => w?.close());
  beforeEach(async () => {
    rx = await startReceiver();
    chain = { ownerId: (await createTestOwner(w.db.prisma, 'Chained')).id, sandbox: false };
    t = Date.now();
    await createWebhook({
      db: w.db.prisma,
      target: chain,
      input: { url: rx.url, types: ['*'], description: '' },
      actor: TEST_ACTOR,
      settings,
    });
  });
  afterEach(async () => {
    await w.db.prisma.webhook.deleteMany({});
    await rx.close();
  });

  it("sends an entry's records one after another in one round, in seq order, beside another entry's", async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const as: number[] = [];
    for (let i = 0; i < 5; i++) as.push(await event(a));
    const b1 = await event(b);
    // one claim: a's first record and b's; a's others follow a's first
    expect(await round()).toBe(2);
    expect(seqs().filter((s) => as.includes(s))).toEqual(as);
    expect(seqs()).toContain(b1);
    expect((await state()).every(([, s, holder]) => s === 'succeeded' && holder === null)).toBe(true);
    expect(await w.db.prisma.webhookAttempt.count()).toBe(6);
    // one connection per chain, kept open between its attempts
    expect(rx.connections).toBeLessThanOrEqual(2);
  });

  it('sends on a new connection, at once, when the receiver closed the kept-open one', async () => {
    const a = randomUUID();
    const a1 = await event(a);
    await round();
    rx.dropConnections();
    const a2 = await event(a);
    await round();
    expect(seqs()).toEqual([a1, a2]);
    expect((await w.db.prisma.webhookAttempt.findMany()).map((x) => x.status)).toEqual([204, 204]);
  });

  it('stops at a failure: the failed record is retried later and nothing after it is sent', async () => {
    const a = randomUUID();
    const [a1, a2, a3] = [await event(a), await event(a), await event(a)];
    rx.answer = (r) => ({ status: JSON.parse(r.body).seq === a2 ? 500 : 204 });
    await round();
    expect(seqs()).toEqual([a1, a2]);
    expect(await state()).toEqual([
      [a1, 'succeeded', null],
      [a2, 'pending', null],
      [a3, 'pending', null],
    ]);
    rx.answer = () => ({ status: 204 });
    t += 5_000;
    await round();
    expect(seqs()).toEqual([a1, a2, a2, a3]);
  });

  it(`sends at most ${CHAIN_MAX} of an entry's records in one chain, then the next round the rest`, async () => {
    const a = randomUUID();
    const all: number[] = [];
    for (let i = 0; i < CHAIN_MAX + 5; i++) all.push(await event(a));
    await round();
    expect(seqs()).toEqual(all.slice(0, CHAIN_MAX));
    await round();
    expect(seqs()).toEqual(all);
  });
});
