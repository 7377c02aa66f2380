// An auditor's key's period on the silo's reads (docs/api.md, Auditor keys): which versions are in
// it, and the 403 for a read of something that is not.
import type { Db } from '../db/client';
import type { File, Prisma } from '../db/generated/client';
import { inPeriod, type Period } from '../db/scope';
import { ApiError } from '../errors';

export const outsidePeriod = (what: string) =>
  new ApiError('outside_period', `${what} was not stored in the period this auditor's key may read`);

/** A `where` on files: versions stored in the period (stored_at; rows from before it: created_at). */
export const storedIn = (p: Period): Prisma.FileWhereInput => ({
  stored: true,
  OR: [{ storedAt: { gte: p.start, lt: p.end } }, { storedAt: null, createdAt: { gte: p.start, lt: p.end } }],
});

/** Is this a version stored in the period? A placeholder is not. */
export const fileInPeriod = (f: File, p: Period) => f.stored && inPeriod(p, f.storedAt ?? f.createdAt);

/** An entry is readable by an auditor's key while one of its versions was stored in the period: else 403. */
export async function assertEntryInPeriod(db: Db, entryId: string, p: Period): Promise<void> {
  const one = await db.file.findFirst({ where: { entryId, ...storedIn(p) }, select: { id: true } });
  if (!one) throw outsidePeriod('No version of this entry');
}
