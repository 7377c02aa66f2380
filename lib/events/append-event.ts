// Appends a change's event record in the change's own statement or transaction (docs/api.md,
// Events): silo_append_events (prisma/sql/events.sql) locks the chain's head, numbers the records,
// hashes it and moves the head, so a change and its record commit together or not at all.
// Call it after the change's own row locks: the chain's head is the last lock a change takes, so
// two changes of one workspace never wait on each other in opposite orders.
import { randomUUID } from 'node:crypto';
import type { Tx } from '../db/client';
import { Prisma } from '../db/generated/client';
import { currentRequestId } from '../log';
import { canonicalJson, type Json } from './canonical-json';
import type { EventActor, EventType } from './catalogue';
import { recordSigned } from './record-signature';
import { loadedAuditKey } from './signing-key';
import { noteAppended } from './witness';

/** A value, or an SQL expression of the statement the record is appended in (a RETURNING's column). */
type Valued<T> = T | Prisma.Sql;

/** Whose chain: a workspace and environment, or (ownerId null) those of the entry `entryId`. */
export type EventChain = { ownerId: string; sandbox: boolean } | { ownerId: null; sandbox?: undefined };

export type NewEvent = EventChain & {
  type: EventType;
  actor: EventActor;
  entryId?: Valued<string | null>;
  fileId?: Valued<string | null>;
  version?: Valued<number | null>;
  /** what a reader needs without another call (catalogue.ts), or SQL giving its canonical JSON text */
  data?: Valued<Record<string, unknown>>;
  /** the request that made the change: by default the one this code runs for */
  requestId?: string | null;
};

const isSql = (v: unknown): v is Prisma.Sql => v instanceof Prisma.Sql;
const value = <T>(v: Valued<T> | undefined, cast: string): Prisma.Sql =>
  isSql(v) ? Prisma.sql`(${v})${Prisma.raw(cast)}` : Prisma.sql`${v ?? null}${Prisma.raw(cast)}`;

/** One more record of the same change: another type, data and version, the same actor, entry, file and request. */
export interface AlsoEvent {
  type: EventType;
  version?: Valued<number | null>;
  data?: Valued<Record<string, unknown>>;
}

const dataText = (data: NewEvent['data']): Prisma.Sql =>
  isSql(data) ? Prisma.sql`(${data})::text` : Prisma.sql`${canonicalJson((data ?? {}) as Json)}::text`;

/**
 * The call that appends `e` (and `also`, right after it), to place in a statement of the change
 * itself (a CTE or a RETURNING). Actor and data go as their RFC 8785 text, written here
 * (canonical-json.ts): the database splices them into each record's text and hashes it, with no
 * JSON work of its own, and moves the chain's head once however many records a change writes.
 * Each record is signed here with the audit key (record-signature.ts) over what is known before
 * the statement. The call's value is the last record's {chain, seq, hash}: pass it to noteAppended.
 */
export function appendEventSql(e: NewEvent, ...also: AlsoEvent[]): Prisma.Sql {
  const key = loadedAuditKey();
  const actor = canonicalJson(e.actor as unknown as Json);
  const requestId = e.requestId ?? currentRequestId() ?? null;
  const all = [e, ...also].map((a) => {
    const id = randomUUID();
    return { ...a, id, sig: recordSigned(key, { actor: e.actor as unknown as Json, id, request_id: requestId, type: a.type }) };
  });
  const list = (f: (a: (typeof all)[number]) => Prisma.Sql) => Prisma.join(all.map(f));
  return Prisma.sql`"silo_append_events"(ARRAY[${list((a) => Prisma.sql`${a.id}::uuid`)}], ${e.ownerId}::uuid, ${e.sandbox ?? null}::boolean,
    ARRAY[${list((a) => Prisma.sql`${a.type}::text`)}], ${actor}::text, ${value(e.entryId, '::uuid')},
    ${value(e.fileId, '::uuid')}, ARRAY[${list((a) => value(a.version, '::int'))}], ARRAY[${list((a) => dataText(a.data))}],
    ${requestId}::text, ARRAY[${list((a) => Prisma.sql`${a.sig}::text`)}])`;
}

/** Appends `e` in its own statement, inside the caller's transaction (or alone). Its seq. */
export async function appendEvent(tx: Tx, e: NewEvent): Promise<number> {
  const [row] = await tx.$queryRaw<{ appended: unknown }[]>`SELECT ${appendEventSql(e)} AS appended`;
  return noteAppended(row.appended).seq;
}

/**
 * A file row's description in its events ({category, from?, key, mime, name, placeholder?, sha256,
 * size}), as the canonical JSON text the database writes from the row's own columns
 * (silo_file_event_data, prisma/sql/events.sql).
 */
export function fileEventData(extra: { placeholder?: boolean; from?: { id: string; version: number } } = {}): Prisma.Sql {
  const from = extra.from ? canonicalJson(extra.from) : null;
  return Prisma.sql`"silo_file_event_data"(name, category, key, mime, size, hash, ${extra.placeholder ?? null}::boolean, ${from}::text)`;
}
