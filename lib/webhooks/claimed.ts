// A claimed delivery: what a claiming statement returns (the claim in deliver.ts, a success's
// successor in record-successes.ts), with its endpoint and the bytes it sends, so an attempt reads
// nothing more.
import { Prisma } from '../db/generated/client';
import { presentEvent } from '../events/record';

export interface Claimed {
  id: string;
  webhookId: string;
  /** the endpoint's workspace: its share of the attempts in flight (deliver.ts, Fairness) */
  ownerId: string;
  eventId: string;
  /** the record's seq and entry (null for a test message): its successor is the entry's next */
  seq: bigint | null;
  entryId: string | null;
  attempts: number;
  windowStart: Date;
  /** the endpoint as the claim read it: where to send, and the secrets (sealed) to sign with */
  hook: { url: string; secret: string; previousSecret: string | null; previousSecretUntil: Date | null };
  /** the bytes to send: the record as GET /silo/v1/events shows it, or a test message; none if the record is gone */
  body: string | undefined;
}

export interface ClaimRow {
  id: string;
  webhook_id: string;
  hook_owner_id: string;
  event_id: string;
  /** bigints as text: the claiming statements go past Prisma (direct-query.ts) */
  d_seq: string | null;
  d_entry_id: string | null;
  attempts: number;
  window_start: Date;
  payload: unknown;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: Date | null;
  // the record's columns (null for a test message)
  e_id: string | null;
  owner_id: string;
  sandbox: boolean;
  seq: string;
  at: Date;
  type: string;
  actor: unknown;
  entry_id: string | null;
  file_id: string | null;
  version: number | null;
  data: unknown;
  request_id: string | null;
  prev_hash: string;
  hash: string;
  sig: string | null;
}

export function claimed(r: ClaimRow): Claimed {
  return {
    id: r.id,
    webhookId: r.webhook_id,
    ownerId: r.hook_owner_id,
    eventId: r.event_id,
    seq: r.d_seq === null ? null : BigInt(r.d_seq),
    entryId: r.d_entry_id,
    attempts: r.attempts,
    windowStart: r.window_start,
    hook: { url: r.url, secret: r.secret, previousSecret: r.previous_secret, previousSecretUntil: r.previous_secret_until },
    body: deliveryBody(r),
  };
}

/** What a claiming UPDATE returns (as `c`), and the rows made of it: each with its endpoint and record. */
export const CLAIMED_RETURNING = Prisma.sql`RETURNING id, webhook_id, event_id, attempts, window_start, payload, seq, entry_id`;
export const CLAIMED_COLUMNS = Prisma.sql`
           c.id::text, c.webhook_id::text, c.event_id::text, c.seq::text AS d_seq, c.entry_id::text AS d_entry_id,
           c.attempts, c.window_start, c.payload,
           w.owner_id::text AS hook_owner_id, w.url, w.secret, w.previous_secret, w.previous_secret_until,
           e.id::text AS e_id, e.owner_id::text, e.sandbox, e.seq::text, e.at, e.type, e.actor, e.entry_id::text,
           e.file_id::text, e.version, e.data, e.request_id, e.prev_hash, e.hash, e.sig`;
export const CLAIMED_FROM = Prisma.sql`
      FROM c JOIN webhooks w ON w.id = c.webhook_id
      LEFT JOIN events e ON c.payload IS NULL AND e.id = c.event_id`;
export const CLAIMED_ROWS = Prisma.sql`SELECT ${CLAIMED_COLUMNS} ${CLAIMED_FROM}`;

/** The bytes a delivery sends: the record as GET /silo/v1/events shows it, or a test message. */
function deliveryBody(r: ClaimRow): string | undefined {
  if (r.payload) return JSON.stringify(r.payload);
  if (r.e_id === null) return undefined;
  return JSON.stringify(
    presentEvent({
      id: r.e_id,
      ownerId: r.owner_id,
      sandbox: r.sandbox,
      seq: BigInt(r.seq),
      at: r.at,
      type: r.type,
      actor: r.actor as Prisma.JsonValue,
      entryId: r.entry_id,
      fileId: r.file_id,
      version: r.version,
      data: r.data as Prisma.JsonValue,
      requestId: r.request_id,
      prevHash: r.prev_hash,
      hash: r.hash,
      sig: r.sig,
    }),
  );
}
