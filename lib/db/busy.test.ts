// A database with no connection free within DATABASE_WAIT_SECONDS answers 503 `busy` with
// Retry-After, not 500, and the refused write leaves nothing behind; once a connection is free the
// same calls succeed. Every connection is held by a transaction that waits on the test, so the
// statement after them can only wait (the embedded database has one connection, PostgreSQL ten).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOwner } from '../access/create-owner';
import { toApiError } from '../http/to-api-error';
import { createEntry } from '../silo/create-entry';
import { TEST_ACTOR } from '../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { holdEveryConnection } from '../testing/held-connections';
import { loggedSoFar } from '../testing/log-capture';
import { failureLevel, isDatabaseBusy } from './db-errors';

describe('isDatabaseBusy', () => {
  it("knows Prisma's transaction that could not start and the pool's own timeout, and nothing else", () => {
    const p2028 = (message: string) => Object.assign(new Error(`Transaction API error: ${message}`), { code: 'P2028' });
    expect(isDatabaseBusy(p2028('Unable to start a transaction in the given time.'))).toBe(true);
    expect(isDatabaseBusy(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseBusy(new Error('wrapped', { cause: new Error('timeout exceeded when trying to connect') }))).toBe(true);
    // A transaction that ran past its own timeout is not a wait for a connection.
    expect(isDatabaseBusy(p2028('Transaction already closed: A commit cannot be executed on an expired transaction.'))).toBe(false);
    expect(isDatabaseBusy(new Error('Unable to start a transaction in the given time.'))).toBe(false);
    expect(isDatabaseBusy(undefined)).toBe(false);
    expect(failureLevel(new Error('timeout exceeded when trying to connect'))).toBe('warn');
    expect(failureLevel(new Error('boom'))).toBe('error');
  });
});

describe.each(testDatabases())('on %s, every connection held', (kind) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await testWorld({ database: kind, waitMs: 300 });
  });
  afterAll(() => w.close());

  it('a write and a read answer 503 busy with Retry-After after the wait, store nothing, and succeed once a connection is free', async () => {
    const p = w.db.prisma;
    const owner = await createOwner(p, 'Busy', TEST_ACTOR);
    const target = { ownerId: owner.id, sandbox: false };
    const held = await holdEveryConnection(p, kind);

    const input = { key: 'refused', folder: 'f', name: 'n', meta: {} };
    const t0 = Date.now();
    const write = await createEntry({ actor: TEST_ACTOR, db: p, target, input }).catch((e) => e);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
    expect(isDatabaseBusy(write)).toBe(true);
    const answer = toApiError(write, 'req-1');
    // Warned of with the request id, not logged as an internal error.
    expect(
      loggedSoFar()
        .filter((l) => l.request_id === 'req-1')
        .map((l) => [l.level, l.msg]),
    ).toEqual([['warn', 'database busy: no connection free in time']]);
    expect(answer.status).toBe(503);
    expect(answer.key).toBe('busy');
    expect(answer.headers).toEqual({ 'Retry-After': '2' });
    expect(answer.body().message).toMatch(/busy; try again .*req-1/);

    const read = await p.entry.findMany({ where: { ownerId: owner.id } }).catch((e) => e);
    expect(isDatabaseBusy(read)).toBe(true);
    expect(toApiError(read, 'req-2').key).toBe('busy');

    await held.release();
    // Nothing of the refused write was stored; the same write now succeeds, and so does the read.
    expect(await p.entry.count({ where: { ownerId: owner.id } })).toBe(0);
    const made = await createEntry({ actor: TEST_ACTOR, db: p, target, input });
    expect(made.created).toBe(true);
    expect(await p.entry.count({ where: { ownerId: owner.id } })).toBe(1);
  });
});
