// What a delete may take (docs/api.md, Retention): nothing under a legal hold, nothing under
// compliance retention, nothing under governance retention unless an administrator overrides it.
// Asked inside the delete's transaction, after its slot locks (lock-slot.ts): a PATCH that extends
// a version, a hold being set and a completion all take those first, so the answer stands until
// the commit. A refusal is recorded (`*.delete_refused`) and committed; the delete then answers 409.
import type { Tx } from '../../db/client';
import type { Prisma } from '../../db/generated/client';
import { ApiError } from '../../errors';
import { appendEvent, type EventChain } from '../../events/append-event';
import type { EventActor } from '../../events/catalogue';

/** The versions a delete would take, as the guard reads them. */
interface Guarded {
  /** null: the entry is held and the delete takes no version of it (an empty entry) */
  id: string | null;
  until: Date | null;
  mode: string | null;
  /** retain_until is still ahead */
  active: boolean;
  hold: boolean;
}

export interface GuardOptions {
  /** whose delete: the refusal's or the override's record names them */
  actor: EventActor;
  chain: EventChain;
  entryId: string;
  fileId?: string;
  version?: number | null;
  /** an administrator's X-Silo-Bypass-Governance-Retention: true (lib/http/context.ts, deleteContext) */
  bypassGovernance: boolean;
  /** file.delete_refused or entry.delete_refused */
  refused: 'file.delete_refused' | 'entry.delete_refused';
}

/** Why a delete was refused: the error it answers with once the refusal's record is committed. */
export class DeleteRefused {
  constructor(readonly error: ApiError) {}
}

/**
 * Judges the versions of entry `o.entryId` that `where` selects (a condition on `f`, its files),
 * and the entry's hold. Undefined: the delete may go on (an override recorded as retention.bypassed); else a
 * refusal, recorded in `tx`, that the caller returns so the transaction commits with it.
 */
export async function guardDelete(tx: Tx, where: Prisma.Sql, o: GuardOptions): Promise<DeleteRefused | undefined> {
  // The entry's row: a hold refuses the delete of anything in it, an empty entry or a placeholder too.
  const rows = await tx.$queryRaw<Guarded[]>`
    SELECT f.id::text, f.retain_until AS until, f.retention_mode AS mode, coalesce(f.stored AND f.retain_until > now(), false) AS active,
      e.legal_hold AS hold
    FROM entries e LEFT JOIN files f ON f.entry_id = e.id AND ${where}
    WHERE e.id = ${o.entryId}::uuid AND (e.legal_hold OR (f.stored AND f.retain_until > now()))`;
  if (!rows.length) return undefined;
  const record = { actor: o.actor, ...o.chain, entryId: o.entryId, fileId: o.fileId ?? null, version: o.version ?? null };
  const refuse = async (error: ApiError, data: Record<string, unknown>) => {
    await appendEvent(tx, { ...record, type: o.refused, data });
    return new DeleteRefused(error);
  };
  if (rows.some((r) => r.hold))
    return refuse(new ApiError('legal_hold', 'The entry is under a legal hold: nothing in it may be deleted until the hold is lifted'), {
      reason: 'legal_hold',
      versions: rows.flatMap((r) => (r.id ? [r.id] : [])),
    });
  const active = rows.filter((r) => r.active);
  const compliance = active.filter((r) => r.mode === 'compliance');
  const blocking = compliance.length || !o.bypassGovernance ? active : [];
  if (blocking.length) {
    const latest = blocking.reduce((a, b) => ((a.until as Date) >= (b.until as Date) ? a : b));
    const until = (latest.until as Date).toISOString();
    const how = compliance.length ? 'compliance retention: no one may override it' : 'governance retention';
    return refuse(new ApiError('retained', `Retained until ${until} (${how})`), {
      reason: 'retained',
      retain_until: until,
      mode: compliance.length ? 'compliance' : 'governance',
      versions: blocking.map((r) => r.id),
    });
  }
  await appendEvent(tx, {
    ...record,
    type: 'retention.bypassed',
    data: { versions: active.map((r) => ({ id: r.id, retain_until: (r.until as Date).toISOString() })) },
  });
  return undefined;
}

/** After the transaction committed: the refusal's error, else the delete's result. */
export function answer<T>(result: T | DeleteRefused): T {
  if (result instanceof DeleteRefused) throw result.error;
  return result;
}
