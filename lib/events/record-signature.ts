// A record's `sig` (docs/api.md, Events): the audit key's base64 Ed25519 signature over the RFC 8785
// JSON of {actor, id, request_id, type}, the fields the server knows before the statement that
// appends the record on every path (the database computes at, seq, prev_hash and sometimes data).
// `id` is a fresh random UUID, the record's primary key: a signature fits no other record.
import { canonicalJson, type Json } from './canonical-json';
import { type AuditKey, signBytes, verifyBytes } from './signing-key';

export interface SignedFields {
  actor: Json;
  id: string;
  request_id: string | null;
  type: string;
}

/** The bytes a record's sig is over. */
export const signedPayload = (r: SignedFields) => canonicalJson({ actor: r.actor, id: r.id, request_id: r.request_id, type: r.type });

export const recordSigned = (key: AuditKey, r: SignedFields): string => signBytes(key, signedPayload(r));

/** Whether the record carries a good sig of `publicKey`. */
export const recordSigOk = (r: SignedFields & { sig?: string | null }, publicKey: AuditKey['publicKey'] | string): boolean =>
  typeof r.sig === 'string' && verifyBytes(publicKey, signedPayload(r), r.sig);
