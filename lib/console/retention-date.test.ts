// The console's example retain-until date is the database's: retentionDate against
// silo_retention_date (migration `retention`) for both kinds of rule, on year ends, leap days and
// long spans, for random moments (fast-check), and in a session whose time zone is not UTC.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { retentionDate, formatUtc, type RuleTerms } from './retention-date';

describe.each(testDatabases())('retentionDate is the database’s (%s)', (database) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await testWorld({ database });
  });
  afterAll(() => w.close());

  const server = async (rule: RuleTerms, at: Date): Promise<Date> => {
    const [row] = await w.db.prisma.$queryRaw<
      { d: Date }[]
    >`SELECT "silo_retention_date"(${rule.from}, ${rule.years}::int, ${rule.days}::int, ${at}::timestamptz) AS d`;
    return row.d;
  };

  const cases: [RuleTerms, string][] = [
    [{ years: 8, days: 0, from: 'end_of_year' }, '2026-11-26T11:50:00.000Z'],
    [{ years: 10, days: 0, from: 'end_of_year' }, '2026-12-31T23:59:59.999Z'],
    [{ years: 6, days: 0, from: 'end_of_year' }, '2027-01-01T00:00:00.000Z'],
    [{ years: 1, days: 0, from: 'stored' }, '2024-02-29T12:00:00.000Z'],
    [{ years: 4, days: 1, from: 'stored' }, '2024-02-29T12:00:00.000Z'],
    [{ years: 0, days: 365, from: 'stored' }, '2024-01-31T08:30:15.123Z'],
    [{ years: 0, days: 0, from: 'stored' }, '2026-03-29T01:30:00.000Z'],
    [{ years: 100, days: 36_500, from: 'end_of_year' }, '2026-06-15T00:00:00.000Z'],
  ];

  it.each(cases)('%o stored at %s', async (rule, at) => {
    const want = await server(rule, new Date(at));
    expect(retentionDate(rule, new Date(at)).toISOString()).toBe(want.toISOString());
  });

  it('agrees on random rules and moments', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 36_500 }),
        fc.constantFrom('stored' as const, 'end_of_year' as const),
        fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-12-31T23:59:59Z'), noInvalidDate: true }),
        async (years, days, from, at) => {
          const rule = { years, days, from };
          expect(retentionDate(rule, at).toISOString()).toBe((await server(rule, at)).toISOString());
        },
      ),
      { numRuns: 200 },
    );
  });

  it('counts in UTC whatever time zone the session has', async () => {
    // A database whose default zone is not UTC: days added across a daylight-saving change must not
    // move the date by an hour (silo_retention_date was once counted in the session's zone). In
    // text both ways: the driver's own conversions assume UTC sessions.
    const at = new Date('2026-03-10T12:00:00.000Z');
    const [, [row]] = await w.db.prisma.$transaction([
      w.db.prisma.$executeRawUnsafe("SET LOCAL TIME ZONE 'Europe/Berlin'"),
      w.db.prisma.$queryRaw<{ d: string }[]>`
        SELECT to_char("silo_retention_date"('stored', 0, 30, ${at.toISOString()}::timestamptz) AT TIME ZONE 'UTC',
                       'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS d`,
    ]);
    expect(row.d).toBe('2026-04-09T12:00:00.000Z');
    expect(retentionDate({ years: 0, days: 30, from: 'stored' }, at).toISOString()).toBe('2026-04-09T12:00:00.000Z');
  });

  it('shows the date in UTC', () => {
    expect(formatUtc('2035-01-01T00:00:00.000Z')).toBe('2035-01-01 00:00 UTC');
  });
});
