// Appends a change's event record in the change's own statement or transaction (docs/api.md,
// Events): silo_append_event (migration event_log) locks the chain's head, numbers the record,
// hashes it and moves the head, so a change and its record commit together or not at all.
// Call it after the change's own row locks: the chain's head is the last lock a change takes, so
// two changes of one workspace never wait on each other in opposite orders.
import { randomUUID } from 'node:crypto';
import type { Tx } from '../db/client';
import { currentRequestId } from '../log';
import { Prisma } from '../db/generated/client';
import type { EventActor, EventType } from './catalogue';

export interface NewEvent {
  type: EventType;
  ownerId: string;
  sandbox: boolean;
  actor: EventActor;
  entryId?: string | null;
  fileId?: string | null;
  version?: number | null;
  /** what a reader needs without another call (catalogue.ts); integers only among its numbers */
  data?: Record<string, unknown>;
  /** the request that made the change: by default the one this code runs for */
  requestId?: string | null;
}

/** The call that appends `e`, to place in a statement of the change itself (a CTE or a RETURNING). */
export function appendEventSql(e: NewEvent): Prisma.Sql {
  return Prisma.sql`"silo_append_event"(${randomUUID()}::uuid, ${e.ownerId}::uuid, ${e.sandbox}, ${e.type}, ${JSON.stringify(e.actor)}::jsonb,
    ${e.entryId ?? null}::uuid, ${e.fileId ?? null}::uuid, ${e.version ?? null}::int, ${JSON.stringify(e.data ?? {})}::jsonb, ${e.requestId ?? currentRequestId() ?? null})`;
}

/** Appends `e` in its own statement, inside the caller's transaction (or alone). Its seq. */
export async function appendEvent(tx: Tx, e: NewEvent): Promise<number> {
  const [row] = await tx.$queryRaw<{ seq: bigint }[]>`SELECT ${appendEventSql(e)} AS seq`;
  return Number(row.seq);
}
