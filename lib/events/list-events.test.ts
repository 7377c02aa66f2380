// GET /silo/v1/events's pages on both databases: oldest first by ?after=, newest first by ?before=,
// each covering the chain (or what a filter keeps) exactly once, and each an index range read in
// seq order, forwards or backwards, never a sort.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../db/generated/client';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { appendEvent } from './append-event';
import type { EventType } from './catalogue';
import { systemActor } from './catalogue';
import { ApiError } from '../errors';
import { type EventQuery, eventRange, listEvents } from './list-events';

describe.each(testDatabases())('listEvents on %s', (database) => {
  let w: TestWorld;
  const chain = { ownerId: '', sandbox: false };
  const entries = [randomUUID(), randomUUID(), randomUUID()];
  const types: EventType[] = ['entry.created', 'entry.updated', 'file.stored'];
  /** seq → [entry, type] */
  const written: { seq: number; entry: string; type: EventType }[] = [];
  beforeAll(async () => {
    w = await testWorld({ database });
    chain.ownerId = (await w.db.prisma.owner.create({ data: { id: randomUUID(), name: 'Paged' } })).id;
    // another chain beside it: never in these pages
    await appendEvent(w.db.prisma, { type: 'entry.created', ownerId: chain.ownerId, sandbox: true, actor: systemActor('test'), data: {} });
    for (let i = 0; i < 31; i++) {
      const entry = entries[i % 3];
      const type = types[i % 2 === 0 ? 2 : i % 3 === 0 ? 0 : 1];
      await appendEvent(w.db.prisma, { type, ...chain, entryId: entry, actor: systemActor('test'), data: { i } });
      written.push({ seq: i + 1, entry, type });
    }
  });
  afterAll(() => w?.close());

  /** Every page's seqs, following next_cursor as ?after= or ?before=. */
  async function pages(q: Omit<EventQuery, 'limit'>, limit: number) {
    const out: number[] = [];
    let cursor: number | undefined;
    for (let n = 0; n < 100; n++) {
      const page = await listEvents(w.db.prisma, chain, {
        ...q,
        limit,
        ...(cursor !== undefined ? (q.order === 'desc' ? { before: cursor } : { after: cursor }) : {}),
      });
      out.push(...page.list.map((r) => r.seq));
      if (page.next_cursor === undefined) return out;
      expect(page.list.length).toBe(limit);
      cursor = Number(page.next_cursor);
    }
    throw new Error('pages never ended');
  }

  it('covers the chain exactly once in either order, with each filter', async () => {
    const filters: { keep: (x: (typeof written)[number]) => boolean; q: Omit<EventQuery, 'limit' | 'order'> }[] = [
      { q: {}, keep: () => true },
      { q: { type: 'file.stored' }, keep: (x) => x.type === 'file.stored' },
      { q: { entry_id: entries[1] }, keep: (x) => x.entry === entries[1] },
      { q: { entry_id: entries[1], type: 'entry.updated' }, keep: (x) => x.entry === entries[1] && x.type === 'entry.updated' },
    ];
    for (const { q, keep } of filters) {
      const expected = written.filter(keep).map((x) => x.seq);
      expect(expected.length).toBeGreaterThan(1);
      for (const limit of [1, 2, 7, 100]) {
        expect(await pages({ ...q, order: 'asc' }, limit)).toEqual(expected);
        expect(await pages({ ...q, order: 'desc' }, limit)).toEqual([...expected].reverse());
      }
    }
  });

  it('bounds a page by after and before in either order, and echoes where it started', async () => {
    const asc = await listEvents(w.db.prisma, chain, { limit: 3, after: 10, before: 20 });
    expect(asc.list.map((r) => r.seq)).toEqual([11, 12, 13]);
    expect(asc).toMatchObject({ cursor: '10', next_cursor: '13' });
    const desc = await listEvents(w.db.prisma, chain, { limit: 3, order: 'desc', after: 10, before: 20 });
    expect(desc.list.map((r) => r.seq)).toEqual([19, 18, 17]);
    expect(desc).toMatchObject({ cursor: '20', next_cursor: '17' });
    const head = await listEvents(w.db.prisma, chain, { limit: 3, order: 'desc' });
    expect(head.list.map((r) => r.seq)).toEqual([31, 30, 29]);
    expect(head.cursor).toBeUndefined();
    const last = await listEvents(w.db.prisma, chain, { limit: 3, order: 'desc', before: 3 });
    expect(last.list.map((r) => r.seq)).toEqual([2, 1]);
    expect(last.next_cursor).toBeUndefined();
  });

  it('reads newest first as an index range backwards, filters included: no sort', async () => {
    // The statement Prisma sends for listEvents (WHERE the chain, the seq bound and the filters, ORDER BY seq DESC).
    const plan = (filter: Prisma.Sql) =>
      w.db.prisma.$transaction(async (tx) => {
        // Tiny tables: make the planner show whether an index gives the order, not what is cheapest here.
        await tx.$executeRaw`SET LOCAL enable_seqscan = off`;
        await tx.$executeRaw`SET LOCAL enable_bitmapscan = off`;
        await tx.$executeRaw`SET LOCAL enable_sort = off`;
        const rows = await tx.$queryRaw<{ 'QUERY PLAN': string }[]>(
          Prisma.sql`EXPLAIN SELECT * FROM events WHERE owner_id = ${chain.ownerId}::uuid AND sandbox = false AND seq < 20 ${filter} ORDER BY seq DESC LIMIT 21`,
        );
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      });
    for (const filter of [
      Prisma.empty,
      Prisma.sql`AND type = 'file.stored'`,
      Prisma.sql`AND entry_id = ${entries[0]}::uuid`,
      Prisma.sql`AND entry_id = ${entries[0]}::uuid AND type = 'entry.updated'`,
    ]) {
      const p = await plan(filter);
      expect(p).toMatch(/Index Scan Backward using events_owner_id_sandbox_(entry_id_seq_idx|type_seq_idx|seq_key)/);
      expect(p).not.toMatch(/Sort/);
    }
  });
});

describe('?cursor= of GET /silo/v1/events (eventRange)', () => {
  it('takes a next_cursor as ?after= oldest first, as ?before= newest first', () => {
    expect(eventRange({ cursor: '40' })).toEqual({ after: 40, before: undefined });
    expect(eventRange({ cursor: '61', order: 'desc' })).toEqual({ after: undefined, before: 61 });
    expect(eventRange({ cursor: '9007199254740991' })).toEqual({ after: Number.MAX_SAFE_INTEGER, before: undefined });
    expect(eventRange({ after: 5, cursor: '40' })).toEqual({ after: 5, before: undefined });
  });

  it('answers 422 validation naming cursor for anything it did not issue, never a start from seq 1', () => {
    for (const cursor of [
      'abc',
      '',
      '0',
      '-1',
      '01',
      '1.5',
      '1e3',
      ' 7',
      '7 ',
      '0x10',
      '9007199254740992',
      '99999999999999999',
      'MjAyNi0',
      '４２',
    ])
      for (const order of ['asc', 'desc'] as const) {
        let caught: unknown;
        try {
          eventRange({ cursor, order });
        } catch (err) {
          caught = err;
        }
        expect(caught, `${order} ?cursor=${cursor}`).toBeInstanceOf(ApiError);
        expect(caught).toMatchObject({ key: 'validation', status: 422, fields: { cursor: 'is not valid' } });
      }
  });
});
