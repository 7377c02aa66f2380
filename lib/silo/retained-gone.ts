// fsck: the versions the law keeps whose blob is gone (docs/api.md, Retention). The database refuses
// the DELETE or UPDATE that would take a compliance-retained or held version's blob (prisma/sql/
// retention.sql); a superuser, or the tables' owner with the triggers switched off, can still
// do it, and a blob store can lose a file. This names the versions such a loss hurts: under
// retention (compliance or governance, its date not passed) or in an entry under a legal hold.
import type { Tx } from '../db/client';

/** Versions named per blob, at most: the count says how many there are. */
const EXAMPLES = 20;

export interface RetainedGone {
  hash: string;
  /** bytes: the store no longer has them; row: its row of `blobs` is gone (the bytes are still there) */
  gone: 'bytes' | 'row';
  /** retained or held versions that point at it */
  versions: number;
  examples: {
    fileId: string;
    entryId: string;
    name: string;
    retention: { mode: string; retainUntil: Date } | null;
    legalHold: boolean;
  }[];
}

/** The retained or held versions that point at blob `hash`: undefined when there are none. */
export async function retainedGone(db: Tx, hash: string, gone: RetainedGone['gone']): Promise<RetainedGone | undefined> {
  const rows = await db.$queryRaw<
    { fileId: string; entryId: string; name: string; mode: string | null; until: Date | null; hold: boolean; n: number }[]
  >`
    SELECT f.id::text AS "fileId", f.entry_id::text AS "entryId", f.name, f.retention_mode AS mode, f.retain_until AS until,
      e.legal_hold AS hold, (count(*) OVER ())::int AS n
    FROM files f JOIN entries e ON e.id = f.entry_id
    WHERE f.hash = ${hash} AND f.stored AND (e.legal_hold OR f.retain_until > now())
    ORDER BY f.id LIMIT ${EXAMPLES}`;
  if (!rows.length) return undefined;
  return {
    hash,
    gone,
    versions: rows[0].n,
    examples: rows.map((r) => ({
      fileId: r.fileId,
      entryId: r.entryId,
      name: r.name,
      retention: r.mode && r.until && r.until.getTime() > Date.now() ? { mode: r.mode, retainUntil: r.until } : null,
      legalHold: r.hold,
    })),
  };
}
