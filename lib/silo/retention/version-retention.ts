// A version's retention as a caller asks for it (docs/api.md, Retention): `retain_until` and
// `retention_mode` at create (never shorter than the workspace's rules give) and later by PATCH
// (extend only; compliance never becomes governance). The rules' own dates are the database's
// (prisma/sql/retention.sql: set in the statement that stores a version).
import type { Tx } from '../../db/client';
import type { Entry, File } from '../../db/generated/client';
import { ApiError } from '../../errors';
import type { RetentionMode } from '../../schemas/retention';

export interface AskedRetention {
  retain_until?: string;
  retention_mode?: RetentionMode;
}

/** The latest date the rules give a version of `category` stored in `entry` at `at`, and whether any of them is compliance. */
export async function rulesRetention(
  db: Tx,
  entry: Pick<Entry, 'ownerId' | 'sandbox' | 'folder'>,
  category: string,
  at: Date,
): Promise<{ until: Date | null; compliance: boolean }> {
  const [r] = await db.$queryRaw<{ until: Date | null; compliance: boolean | null }[]>`
    SELECT max("silo_retention_date"("from", years, days, ${at}::timestamptz)) AS until, bool_or(mode = 'compliance') AS compliance
    FROM retention_rules
    WHERE owner_id = ${entry.ownerId}::uuid AND sandbox = ${entry.sandbox} AND (category IS NULL OR category = ${category})
      AND "silo_folder_covers"(folder, ${entry.folder})`;
  return { until: r?.until ?? null, compliance: !!r?.compliance };
}

/**
 * The row values of what a create asks (none: nothing to look up, the hot path). A date in the
 * past, or before the date the rules would give the version stored now, answers 422.
 */
export async function askedRetention(
  db: Tx,
  entry: Pick<Entry, 'ownerId' | 'sandbox' | 'folder'>,
  category: string,
  asked: AskedRetention,
): Promise<{ retainUntil: Date | null; retentionMode: RetentionMode | null }> {
  if (asked.retain_until === undefined) return { retainUntil: null, retentionMode: null };
  const until = new Date(asked.retain_until);
  const now = new Date();
  if (until <= now) throw invalidDate('must be in the future');
  const rules = await rulesRetention(db, entry, category, now);
  if (rules.until && until < rules.until)
    throw invalidDate(`must be no earlier than ${rules.until.toISOString()}, the date the workspace's retention rules give`);
  return { retainUntil: until, retentionMode: asked.retention_mode ?? 'governance' };
}

/**
 * What a PATCH makes of a version's retention: a later date and a mode no weaker; 422 for a
 * shorter date or compliance turned into governance. Undefined: the PATCH does not touch it.
 */
export function extendedRetention(
  f: Pick<File, 'retainUntil' | 'retentionMode'>,
  asked: AskedRetention,
): { retainUntil: Date; retentionMode: RetentionMode } | undefined {
  if (asked.retain_until === undefined && asked.retention_mode === undefined) return undefined;
  const until = asked.retain_until !== undefined ? new Date(asked.retain_until) : f.retainUntil;
  if (!until) throw invalidDate('is required: the version has no retention to change the mode of');
  if (f.retainUntil && until < f.retainUntil)
    throw invalidDate(`must be no earlier than ${f.retainUntil.toISOString()}: retention is extended, never shortened`);
  if (!f.retainUntil && until <= new Date()) throw invalidDate('must be in the future');
  const mode = asked.retention_mode ?? (f.retentionMode as RetentionMode | null) ?? 'governance';
  if (f.retentionMode === 'compliance' && mode !== 'compliance')
    throw new ApiError('validation', 'Compliance retention never becomes governance', {
      fields: { retention_mode: 'must stay compliance' },
    });
  return { retainUntil: until, retentionMode: mode };
}

const invalidDate = (message: string) => new ApiError('validation', `retain_until ${message}`, { fields: { retain_until: message } });
