import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestOwner } from '../testing/owner';
import { ApiError } from '../errors';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { decodeCursor, encodeCursor } from './cursor';
import { listEntries } from '../silo/list-entries';

const cursorOf = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const HOSTILE = [
  cursorOf(['2026-01-01T00:00:00.000Z', 'not-a-uuid']),
  cursorOf(['2026-01-01T00:00:00.000Z', '00000000-0000-0000-0000-00000000000\u0000']),
  cursorOf([new Date(-8.64e15).toISOString(), '00000000-0000-0000-0000-000000000000']),
  cursorOf([new Date(8.64e15).toISOString(), '00000000-0000-0000-0000-000000000000']),
  cursorOf([-8.64e15, '00000000-0000-0000-0000-000000000000']),
  cursorOf(['2026-02-30T00:00:00.000Z', '00000000-0000-0000-0000-000000000000']),
  // JavaScript has a year 0000, PostgreSQL does not ("date/time field value out of range"): was a 500.
  cursorOf(['0000-01-01T00:00:00.000Z', '00000000-0000-0000-0000-000000000000']),
  cursorOf(['0000-12-31T23:59:59.999Z', '00000000-0000-0000-0000-000000000000']),
  cursorOf({ 0: 'x' }),
  cursorOf(null),
  cursorOf(['2026-01-01T00:00:00.000Z']),
  '%%%',
  '',
];

describe('decodeCursor', () => {
  it('reads back what encodeCursor wrote', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date(0), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }),
        fc.uuid(),
        (createdAt, id) => {
          expect(decodeCursor(encodeCursor({ createdAt, id }))).toEqual({ createdAt, id });
        },
      ),
    );
  });
  it('refuses ids that are not UUIDs and times PostgreSQL cannot hold', () => {
    for (const c of HOSTILE) expect(() => decodeCursor(c), c).toThrow(ApiError);
  });
});

describe.each(testDatabases())('a hostile cursor reaches no query (%s)', (database) => {
  let w: TestWorld;
  beforeAll(async () => (w = await testWorld({ database })));
  afterAll(() => w.close());
  it('answers 422 validation, not a database error', async () => {
    const owner = await createTestOwner(w.db.prisma, 'A');
    for (const cursor of HOSTILE.filter(Boolean)) {
      const err = await listEntries({ db: w.db.prisma, target: { ownerId: owner.id, sandbox: false }, query: { limit: 5, cursor } }).catch(
        (e) => e,
      );
      expect(err, cursor).toBeInstanceOf(ApiError);
      expect((err as ApiError).key).toBe('validation');
    }
  });
  it('pages from the first and the last time a cursor may hold', async () => {
    const owner = await createTestOwner(w.db.prisma, 'B');
    const target = { ownerId: owner.id, sandbox: false };
    const id = '00000000-0000-0000-0000-000000000000';
    for (const at of ['0001-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z']) {
      const cursor = encodeCursor({ createdAt: new Date(at), id });
      await expect(listEntries({ db: w.db.prisma, target, query: { limit: 5, cursor } }), at).resolves.toBeTruthy();
    }
  });
});
