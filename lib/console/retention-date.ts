// The date a retention rule gives a version stored at a moment, as the database computes it
// (silo_retention_date, prisma/sql/retention.sql): from the store time, or from 1 January 00:00 UTC
// after the year it was stored in; then the years (29 February lands on 28 February, as
// PostgreSQL's interval arithmetic does), then the days. UTC throughout (docs/api.md, Retention).
// Pinned to the database's own function by retention-date.test.ts.
import type { RetentionRuleRecord } from '../schemas/retention';

export type RuleTerms = Pick<RetentionRuleRecord, 'years' | 'days' | 'from'>;

export function retentionDate(rule: RuleTerms, storedAt: Date): Date {
  const t = storedAt.getTime();
  const start = rule.from === 'end_of_year' ? new Date(Date.UTC(storedAt.getUTCFullYear() + 1, 0, 1)) : new Date(t);
  const year = start.getUTCFullYear() + rule.years;
  const month = start.getUTCMonth();
  // the last day of the target month, when the start's day is past it (29 Feb + 1 year → 28 Feb)
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const d = new Date(start);
  d.setUTCFullYear(year, month, Math.min(start.getUTCDate(), lastDay));
  d.setUTCDate(d.getUTCDate() + rule.days);
  return d;
}

/** A rule's terms as people read them: "10 years from the end of the year". */
export function describeRule(rule: RuleTerms): string {
  const parts = [
    rule.years && `${rule.years} ${rule.years === 1 ? 'year' : 'years'}`,
    rule.days && `${rule.days} ${rule.days === 1 ? 'day' : 'days'}`,
  ];
  const span = parts.filter(Boolean).join(' and ') || '0 days';
  return `${span} from ${rule.from === 'end_of_year' ? 'the end of the year' : 'when stored'}`;
}

/** A retain-until date in the one calendar every instance shares: "2035-01-01 00:00 UTC". */
export const formatUtc = (iso: string | Date): string => `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
