// DELETE /admin/v1/owners/{id}: an administrator deletes a workspace with everything in it — unless
// it holds a version under retention or an entry under a legal hold (docs/api.md, Retention). The
// refusal is recorded (workspace.delete_refused, in the live chain) and committed; governance yields
// to the override, compliance and holds to no one (and the database refuses compliance's cascade
// anyway). The workspace's chains go with it, their final heads kept in deleted_chains
// (prisma/sql/events.sql); its bytes are freed by the blob sweep once nothing refers to them. An override that
// let governance-retained versions go is the live chain's last record, retention.bypassed, which
// deleted_chains keeps whole (silo_keep_final_heads, prisma/sql/events.sql): GET /admin/v1/deleted-chains.
import type { Db } from '../db/client';
import { ApiError, notFound } from '../errors';
import { appendEvent } from '../events/append-event';
import type { EventActor } from '../events/catalogue';
import { refusedByDatabase } from '../db/db-errors';

export interface DeleteOwnerOptions {
  db: Db;
  id: string;
  actor: EventActor;
  /** X-Silo-Bypass-Governance-Retention: true (only administrators reach this) */
  bypassGovernance: boolean;
}

interface Held {
  name: string;
  holds: number;
  /** stored versions whose governance date is ahead: what an override lets go */
  overridden: number;
  compliance: Date | null;
  governance: Date | null;
}

export async function deleteOwner({ db, id, actor, bypassGovernance }: DeleteOwnerOptions): Promise<void> {
  const refusal = await db
    .$transaction(async (tx): Promise<ApiError | undefined> => {
      const [owner] = await tx.$queryRaw<unknown[]>`SELECT 1 FROM owners WHERE id = ${id}::uuid FOR UPDATE`;
      if (!owner) throw notFound('Owner not found');
      // Slots, then entries, as a file delete and a legal hold take them (lib/silo/files/lock-slot.ts).
      await tx.$queryRaw`
      SELECT 1 FROM file_slots s JOIN entries e ON e.id = s.entry_id WHERE e.owner_id = ${id}::uuid ORDER BY s.id FOR UPDATE OF s`;
      await tx.$queryRaw`SELECT 1 FROM entries WHERE owner_id = ${id}::uuid ORDER BY id FOR UPDATE`;
      const [held] = await tx.$queryRaw<Held[]>`
      SELECT (SELECT name FROM owners WHERE id = ${id}::uuid) AS name,
        (SELECT count(*)::int FROM entries WHERE owner_id = ${id}::uuid AND legal_hold) AS holds,
        count(*) FILTER (WHERE f.retention_mode IS DISTINCT FROM 'compliance')::int AS overridden,
        max(f.retain_until) FILTER (WHERE f.retention_mode = 'compliance') AS compliance,
        max(f.retain_until) FILTER (WHERE f.retention_mode IS DISTINCT FROM 'compliance') AS governance
      FROM files f JOIN entries e ON e.id = f.entry_id
      WHERE e.owner_id = ${id}::uuid AND f.stored AND f.retain_until > now()`;
      const until = held.compliance ?? (bypassGovernance ? null : held.governance);
      const refuse = async (error: ApiError, data: Record<string, unknown>) => {
        await appendEvent(tx, { type: 'workspace.delete_refused', ownerId: id, sandbox: false, actor, data });
        return error;
      };
      if (held.holds)
        return refuse(new ApiError('legal_hold', `${held.holds} entries of the workspace are under a legal hold`), {
          reason: 'legal_hold',
          entries: held.holds,
        });
      if (until) {
        const mode = held.compliance ? 'compliance' : 'governance';
        return refuse(new ApiError('retained', `The workspace holds versions retained until ${until.toISOString()} (${mode} retention)`), {
          reason: 'retained',
          retain_until: until.toISOString(),
          mode,
        });
      }
      if (held.governance)
        // The live chain's last record: kept whole in deleted_chains by the DELETE's own trigger.
        await appendEvent(tx, {
          type: 'retention.bypassed',
          ownerId: id,
          sandbox: false,
          actor,
          data: { workspace: { id, name: held.name }, version_count: held.overridden, retain_until: held.governance.toISOString() },
        });
      await tx.$executeRaw`DELETE FROM owners WHERE id = ${id}::uuid`;
      return undefined;
    })
    .catch(refusedByDatabase);
  if (refusal) throw refusal;
}
