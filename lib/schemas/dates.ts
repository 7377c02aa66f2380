// The one reading of a date or a time in a request: what both PostgreSQL and JavaScript hold
// (years 0001 to 9999; PostgreSQL has no year 0000 and JavaScript's ISO text none past 9999), so a
// bad one is 422 `validation` naming its field, never the database's 22008 as a 500.
import { z } from 'zod';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A day of the calendar, YYYY-MM-DD (UTC), in the years 0001–9999. */
export const day = (description: string, example = '2026-01-01') =>
  z
    .string()
    .regex(DAY, 'must be a date, YYYY-MM-DD')
    .refine((s) => s >= '0001-01-01', 'must be in the years 0001 to 9999')
    .refine((s) => {
      const d = new Date(`${s}T00:00:00.000Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
    }, 'must be a real date')
    .meta({ description, example });

/** An instant, ISO 8601 with its offset (`Z` or ±hh:mm), whose UTC time falls in the years 0001–9999. */
export const instant = (description: string, example = '2036-12-31T23:59:59Z') =>
  z.iso
    .datetime({ offset: true })
    .refine((s) => {
      const year = new Date(s).getUTCFullYear();
      return year >= 1 && year <= 9999;
    }, 'must be in the years 0001 to 9999 (UTC)')
    .meta({ description, example });
