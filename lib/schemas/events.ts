// The event log's records and queries (docs/api.md, Events): the one source of their validation,
// types and OpenAPI.
import { z } from 'zod';
import { built, listOf, listQuery, recordId, uuid } from './common';
import { EVENT_TYPES } from './event-types';

export { EVENT_TYPES };

const HASH = z
  .string()
  .regex(/^[0-9a-f]{64}$/)
  .meta({ example: 'c0535e4be2b79ffd93291305436bf889314e4a3faec05ecffcbb7df31ad9e51a' });

export const EventActor = z
  .object({
    type: z.enum(['app', 'user', 'owner_key', 'admin', 'admin_key', 'auditor_key', 'system']),
    id: z.string().nullable(),
    name: z.string(),
  })
  .meta({
    id: 'EventActor',
    description:
      "Who made the change: a version's created_by, the instance's ADMIN_API_KEY, an auditor's key (its own use), or the server itself",
  });

export const EventRecord = z
  .object({
    id: recordId,
    seq: z.number().int().min(1).meta({ description: 'The place in its chain: 1, 2, 3 … without gaps', example: 42 }),
    at: z.string().meta({ format: 'date-time', example: '2026-11-25T12:00:00.000Z' }),
    type: z.enum(Object.keys(EVENT_TYPES) as [keyof typeof EVENT_TYPES]),
    sandbox: z.boolean(),
    actor: EventActor,
    entry_id: recordId.nullable(),
    file_id: recordId.nullable(),
    version: z.number().int().min(1).meta({ example: 3 }).nullable(),
    data: z
      .record(z.string(), z.unknown())
      .meta({ description: 'What a reader needs without another call (the catalogue in docs/api.md)' }),
    request_id: z.string().nullable(),
    prev_hash: HASH.meta({ description: "The previous record's hash; 64 zeros for the first" }),
    hash: HASH.meta({ description: "Hex SHA-256 of this record's RFC 8785 canonical JSON without its hash field" }),
    sig: z.string().optional().meta({
      description:
        "base64 Ed25519 signature of the audit key (GET /utils/v1/audit-key) over the RFC 8785 JSON of {actor, id, request_id, type}; absent on records written before record signatures (the chain's signed_from)",
    }),
  })
  .meta({ id: 'Event', description: 'One change, as the event log keeps it' });

export const eventListQuery = built((maxLimit: number) =>
  listQuery(maxLimit).extend({
    order: z
      .enum(['asc', 'desc'])
      .default('asc')
      .meta({ description: 'asc: oldest first (the default); desc: newest first, paged with ?before=' }),
    after: z.coerce
      .number()
      .int()
      .min(0)
      .max(Number.MAX_SAFE_INTEGER)
      .optional()
      .meta({ description: 'Records after this seq (oldest first: the last seq of the previous page)', example: 40 }),
    before: z.coerce
      .number()
      .int()
      .min(1)
      .max(Number.MAX_SAFE_INTEGER)
      .optional()
      .meta({ description: 'Records before this seq (newest first: the last seq of the previous page)', example: 61 }),
    entry_id: uuid.optional().meta({ description: "Only this entry's records" }),
    type: z
      .enum(Object.keys(EVENT_TYPES) as [keyof typeof EVENT_TYPES])
      .optional()
      .meta({ description: 'Only records of this type' }),
  }),
);

export const EventList = z
  .object({
    list: z.array(EventRecord),
    limit: z.number().int().min(0).meta({ description: 'The page size asked for (or the default)', example: 20 }),
    cursor: z.string().optional().meta({ description: 'The seq this page starts after (newest first: before)' }),
    next_cursor: z.string().optional().meta({
      description:
        'The last seq of this page: pass it as ?after= (newest first: ?before=), or as ?cursor= in either order, for the next page; absent on the last',
    }),
  })
  .meta({ id: 'EventList' });

export const CheckpointRecord = z
  .object({
    chain: z.string().meta({ description: '`<workspace id>/live` or `<workspace id>/sandbox`' }),
    seq: z.number().int().min(1).meta({ description: 'The record the checkpoint names', example: 42 }),
    hash: HASH,
    at: z.string().meta({ description: 'When it was made (ISO 8601)', example: '2026-11-26T07:40:00.000Z' }),
    key_id: z.string().meta({ description: "The audit key's id (GET /utils/v1/audit-key)", example: '3f2a9c0d41b7e6a5' }),
    signature: z.string().meta({ description: 'base64 Ed25519 signature over the RFC 8785 JSON of {chain, seq, hash, at}' }),
    timestamp: z
      .object({
        token: z.string().meta({
          description:
            'base64 DER of the RFC 3161 TimeStampToken whose messageImprint is the SHA-256 of the same bytes the signature is over',
        }),
        gen_time: z.string().meta({ description: "The token's genTime (ISO 8601), as the authority says" }),
      })
      .nullable()
      .meta({ description: 'From AUDIT_TSA_URL; null: no token (none configured, or not fetched yet)' }),
  })
  .meta({ id: 'CheckpointRecord', description: 'A signed checkpoint of a chain (verify checks it; the auditor export lists them)' });

export const ChainVerdict = z
  .object({
    ok: z.boolean(),
    checked: z.number().int().min(0).meta({ description: 'Records recomputed', example: 42 }),
    head: z.object({ seq: z.number().int().min(0).meta({ example: 42 }), hash: HASH }),
    checkpoints: z
      .number()
      .int()
      .min(0)
      .meta({ description: 'Signed checkpoints checked (signature and the record they name)', example: 3 }),
    timestamps: z
      .number()
      .int()
      .min(0)
      .meta({ description: 'RFC 3161 tokens of those checkpoints checked (imprint, signature, timeStamping certificate)', example: 3 }),
    last_checkpoint: CheckpointRecord.nullable().meta({
      description: 'The newest checkpoint that checked out, with its time-stamp: evidence a client may keep apart',
    }),
    unsigned_before: z.number().int().min(0).meta({
      description:
        "Records checked that were written before record signatures came in (seq up to the chain's signed_from): they carry no sig; every later one must carry a good one",
      example: 0,
    }),
    first_bad_seq: z
      .number()
      .int()
      .min(1)
      .optional()
      .meta({ description: 'The first record that is missing, not what its hash says, or not signed by the audit key', example: 7 }),
    reason: z.string().optional(),
  })
  .meta({ id: 'ChainVerdict', description: "The caller's chain recomputed from its first record" });

/** GET /admin/v1/deleted-chains: `?owner_id=` narrows it to one deleted workspace. */
export const deletedChainsQuery = built((maxLimit: number) =>
  listQuery(maxLimit).extend({
    owner_id: uuid.optional().meta({ description: 'Only this deleted workspace' }),
  }),
);

export const DeletedChain = z
  .object({
    chain: z.string().meta({ description: '<workspace id>/live or /sandbox', example: '0b9d4a52-5c1e-4f4e-9d3a-6a2f0c1b7e21/live' }),
    sandbox: z.boolean(),
    seq: z.number().int().min(1).meta({ description: "The chain's last seq", example: 42 }),
    hash: HASH.meta({ description: "The chain's last record's hash" }),
    final_record: EventRecord.nullable().meta({
      description:
        "The chain's last record as GET /silo/v1/events showed it (an override's retention.bypassed, when the delete let governance-retained versions go); null for a chain deleted before it was kept",
    }),
    verified: z.boolean().nullable().meta({
      description:
        "final_record's hash recomputed (RFC 8785) equals its hash, and that is the chain's last hash at seq; null: no record kept",
    }),
  })
  .meta({ id: 'DeletedChain' });

export const DeletedWorkspace = z
  .object({
    owner_id: recordId,
    deleted_at: z.string().meta({ format: 'date-time', example: '2026-11-26T12:00:00.000Z' }),
    chains: z.array(DeletedChain),
  })
  .meta({ id: 'DeletedWorkspace', description: "A deleted workspace's chains: each one's final head and last record, kept" });

export const DeletedWorkspaceList = listOf(DeletedWorkspace, 'DeletedWorkspaceList');
