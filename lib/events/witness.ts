// What a client keeps of the event log to name a cut or changed tail later (docs/api.md, Events):
// the Silo-Event header each answer of a write that appended a record carries, naming the last
// record it appended — an RFC 8941 dictionary `chain="<owner id>/live", seq=12, hash="<hex>"`.
// The values come from the statement that appended the record (silo_append_events answers them).
import { lastEvent, noteLastEvent } from '../log';

export const WITNESS_HEADER = 'Silo-Event';

export interface AppendedEvent {
  chain: string;
  seq: number;
  hash: string;
}

/** Keeps what silo_append_events answered (its jsonb) as the request's last record. */
export function noteAppended(answer: unknown): AppendedEvent {
  const a = (typeof answer === 'string' ? JSON.parse(answer) : answer) as { chain: string; seq: number | string; hash: string };
  const e = { chain: a.chain, seq: Number(a.seq), hash: a.hash };
  noteLastEvent(e);
  return e;
}

export const witnessHeaderValue = (e: AppendedEvent) => `chain="${e.chain}", seq=${e.seq}, hash="${e.hash}"`;

/** The header's value for this request's answer (or `request`'s, from currentRequest), if it appended a record. */
export function witnessHeader(request?: object): string | undefined {
  const e = request ? lastEvent(request) : lastEvent();
  return e ? witnessHeaderValue(e) : undefined;
}

/** Reads a header value back (undefined: not one). */
export function parseWitnessHeader(value: string): AppendedEvent | undefined {
  const m = /^\s*chain="([0-9a-f-]{36}\/(?:live|sandbox))"\s*,\s*seq=(\d+)\s*,\s*hash="([0-9a-f]{64})"\s*$/.exec(value);
  return m ? { chain: m[1], seq: Number(m[2]), hash: m[3] } : undefined;
}
