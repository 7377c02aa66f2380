// The event log's records and queries (docs/api.md, Events): the one source of their validation,
// types and OpenAPI.
import { z } from 'zod';
import { built, listQuery, recordId, uuid } from './common';

/** The kinds of event record, each with what its `data` holds (docs/api.md, Events). */
export const EVENT_TYPES = {
  'entry.created': 'An entry was made. data: {key, folder, name, meta}',
  'entry.updated': 'An entry was edited. data: {before, after} with only the changed fields',
  'entry.deleted':
    'An entry was deleted with its files. data: {key, folder, name, files: [{id, category, key, name, version, sha256, size}]}',
  'file.created':
    'A file was asked for: inline (then file.stored follows) or a placeholder. data: {name, category, key, mime, size, sha256, placeholder}',
  'file.stored': 'A version exists: its bytes were received and verified. data: {name, category, key, mime, size, sha256}',
  'file.updated': 'A version was edited (desc, meta, private, embeddable). data: {before, after}',
  'file.deleted': 'A version, or a file with its history, was deleted. data: {versions: [{id, version, name, sha256, size}]}',
  'file.restored':
    'An earlier version was copied into a new current version. data: {from: {id, version}, name, category, key, mime, size, sha256}',
  'link.created': 'A time-limited link to a version was made. data: {expires_at}',
  'link.revoked': 'Every link of a version was revoked. data: {}',
  'enrollment.created': 'An application was enrolled in the workspace. data: {app_id, app_name}',
  'enrollment.authorized': 'An application authorized itself for the enrollment and got a token. data: {app_id, token_expires}',
  'enrollment.disabled': 'An enrollment was disabled: its tokens stop working. data: {app_id}',
  'enrollment.enabled': 'An enrollment was enabled again. data: {app_id}',
  'key.created': 'An API key was made. data: {key_id, prefix}',
  'key.revoked': 'An API key was revoked. data: {key_id, prefix}',
  'workspace.renamed': 'The workspace was renamed. data: {before: {name}, after: {name}}',
  'export.created':
    "An auditor's export of the chain was made (GET /silo/v1/export). data: {from, to, versions, bytes, size, manifest_sha256}",
} as const;

const HASH = z
  .string()
  .regex(/^[0-9a-f]{64}$/)
  .meta({ example: 'c0535e4be2b79ffd93291305436bf889314e4a3faec05ecffcbb7df31ad9e51a' });

export const EventActor = z
  .object({
    type: z.enum(['app', 'user', 'owner_key', 'admin', 'admin_key', 'system']),
    id: z.string().nullable(),
    name: z.string(),
  })
  .meta({
    id: 'EventActor',
    description: "Who made the change: a version's created_by, the instance's ADMIN_API_KEY, or the server itself",
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
  })
  .meta({ id: 'Event', description: 'One change, as the event log keeps it' });

export const eventListQuery = built((maxLimit: number) =>
  listQuery(maxLimit).extend({
    after: z.coerce
      .number()
      .int()
      .min(0)
      .max(Number.MAX_SAFE_INTEGER)
      .optional()
      .meta({ description: 'Records after this seq (the last seq of the previous page)', example: 40 }),
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
    cursor: z.string().optional().meta({ description: 'The seq this page starts after' }),
    next_cursor: z.string().optional().meta({ description: 'Pass as ?after= (or ?cursor=) for the next page; absent on the last' }),
  })
  .meta({ id: 'EventList' });

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
    first_bad_seq: z
      .number()
      .int()
      .min(1)
      .optional()
      .meta({ description: 'The first record that is missing or not what its hash says', example: 7 }),
    reason: z.string().optional(),
  })
  .meta({ id: 'ChainVerdict', description: "The caller's chain recomputed from its first record" });
