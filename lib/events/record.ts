// An event record as GET /silo/v1/events shows it, and its hash: hex SHA-256 of the record's
// RFC 8785 JSON without `hash` (docs/api.md, Events). The database computes the same hash when it
// appends a record (silo_append_events); verify-chain.ts recomputes it here.
import { createHash } from 'node:crypto';
import type { Event } from '../db/generated/client';
import { canonicalJson, type Json } from './canonical-json';

export const GENESIS_HASH = '0'.repeat(64);

export interface EventRecord {
  id: string;
  seq: number;
  at: string;
  type: string;
  sandbox: boolean;
  actor: Json;
  entry_id: string | null;
  file_id: string | null;
  version: number | null;
  data: Json;
  request_id: string | null;
  prev_hash: string;
  hash: string;
  /** the audit key's signature (record-signature.ts); absent on records written before signatures */
  sig?: string;
}

export function presentEvent(row: Omit<Event, 'sig'> & { sig?: string | null }): EventRecord {
  return {
    id: row.id,
    seq: Number(row.seq),
    at: row.at.toISOString(),
    type: row.type,
    sandbox: row.sandbox,
    actor: row.actor as Json,
    entry_id: row.entryId,
    file_id: row.fileId,
    version: row.version,
    data: row.data as Json,
    request_id: row.requestId,
    prev_hash: row.prevHash,
    hash: row.hash,
    ...(row.sig == null ? {} : { sig: row.sig }),
  };
}

/** What a record's hash must be: the SHA-256 of its canonical JSON without `hash`. */
export function recordHash(record: Omit<EventRecord, 'hash'> & { hash?: string }): string {
  const { hash: _, ...rest } = record;
  return createHash('sha256')
    .update(canonicalJson(rest as unknown as Json))
    .digest('hex');
}
