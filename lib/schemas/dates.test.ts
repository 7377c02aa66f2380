import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../errors';
import { readQuery } from '../http/request';
import { type TestWorld, testDatabases, testWorld } from '../testing/database';
import { AuditorKeyInput } from './auditor-keys';
import { day, instant } from './dates';
import { entryListQuery } from './entries';
import { exportQuery } from './export';
import { RetainUntil } from './retention';

const BAD_DAYS = ['0000-01-01', '10000-01-01', '2026-02-30', '2026-13-01', '2026-1-01', '26-01-01', '2026-01-01T00:00:00Z', 'garbage', ''];
const BAD_INSTANTS = [
  '0000-06-01T00:00:00Z',
  '0001-01-01T00:00:00+01:00', // 0000-12-31T23:00Z
  '9999-12-31T23:30:00-01:00', // 10000-01-01T00:30Z
  '10000-01-01T00:00:00Z',
  '2026-02-30T00:00:00Z',
  '2026-01-01T00:00:00+25:00',
  '2026-01-01T00:00:00', // no offset
  'garbage',
];

/** The field a 422 names, from the query as a route reads it. */
function refusedField(query: string, schema: Parameters<typeof readQuery>[1]): string | undefined {
  try {
    readQuery(`http://x/?${query}`, schema);
  } catch (err) {
    if (err instanceof ApiError && err.status === 422) return Object.keys(err.fields ?? {})[0];
    throw err;
  }
  return undefined;
}

describe('one date type for every input', () => {
  it('a day is YYYY-MM-DD of the calendar in the years 0001 to 9999', () => {
    const d = day('a day');
    for (const bad of BAD_DAYS) expect(d.safeParse(bad).success, bad).toBe(false);
    for (const good of ['0001-01-01', '9999-12-31', '2024-02-29']) expect(d.safeParse(good).success, good).toBe(true);
  });

  it('an instant is ISO 8601 with its offset, its UTC time in the years 0001 to 9999', () => {
    const t = instant('a time');
    for (const bad of BAD_INSTANTS) expect(t.safeParse(bad).success, bad).toBe(false);
    for (const good of ['0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z', '2026-06-01T12:00:00+02:00'])
      expect(t.safeParse(good).success, good).toBe(true);
  });

  it('every field that reads one answers 422 naming itself', () => {
    const entries = entryListQuery(100);
    for (const bad of BAD_DAYS.filter(Boolean)) {
      const v = encodeURIComponent(bad);
      expect(refusedField(`issued_from=${v}`, entries)).toBe('issued_from');
      expect(refusedField(`issued_to=${v}`, entries)).toBe('issued_to');
      expect(refusedField(`from=${v}&to=2026-01-01`, exportQuery)).toBe('from');
      expect(refusedField(`from=2026-01-01&to=${v}`, exportQuery)).toBe('to');
      expect(AuditorKeyInput.safeParse({ from: bad, to: '2026-01-01', expires_in: 60 }).error?.issues[0]?.path).toEqual(['from']);
    }
    for (const bad of BAD_INSTANTS) expect(RetainUntil.safeParse(bad).success, bad).toBe(false);
  });
});

describe.each(testDatabases())('the edges reach the database on %s', (database) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await testWorld({ database });
  }, 60_000);
  afterAll(() => w?.close());

  it('the first and last day and instant every schema lets through are values the database holds', async () => {
    const days = ['0001-01-01', '9999-12-31'].map((s) => day('d').parse(s));
    const times = ['0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z'].map((s) => new Date(instant('t').parse(s)));
    for (const d of days) await w.db.prisma.$queryRaw`SELECT ${d}::date AS d`;
    for (const t of times) await w.db.prisma.$queryRaw`SELECT ${t}::timestamptz AS t`;
    // and the first one refused is one it would not (22008): the reason for the bound
    await expect(w.db.prisma.$queryRaw`SELECT ${'0000-01-01'}::date AS d`).rejects.toThrow();
  });
});
