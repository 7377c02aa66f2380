// Payloads of the file endpoints: docs/api.md, Files and Uploads.
import { z } from 'zod';
import { InvoiceFacts } from './invoice-facts';
import { meta, recordId, text, timestamp, uuid, type MetaLimits, built } from './common';
import { MAX_MEDIA_TYPE_LENGTH, isMediaType } from './media-type';
import { RetainUntil, RetentionMode, VersionRetention } from './retention';

export const Category = z.enum(['format', 'attachment']);
export type Category = z.infer<typeof Category>;

const sha256 = z
  .string()
  .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters')
  .transform((s) => s.toLowerCase());

/** A media type as HTTP can carry it in Content-Type: see media-type.ts and docs/api.md. */
const mime = z
  .string()
  .transform((s) => s.trim())
  .superRefine((s, ctx) => {
    if (s.length > MAX_MEDIA_TYPE_LENGTH) ctx.addIssue({ code: 'custom', message: `must be at most ${MAX_MEDIA_TYPE_LENGTH} characters` });
    else if (!isMediaType(s))
      ctx.addIssue({ code: 'custom', message: 'must be a media type such as application/pdf or text/plain; charset=utf-8 (ASCII only)' });
  })
  .meta({ description: 'RFC 9110 media type in ASCII: type/subtype with optional ; name=value parameters', example: 'application/pdf' });

/** The file limits of docs/api.md, Limits (MAX_INLINE_BYTES, MAX_FILE_BYTES, UPLOAD_URL_TTL_SECONDS). */
export interface FileLimits {
  maxInlineBytes: number;
  maxFileBytes: number;
  uploadTtlSeconds: number;
  /** inline bytes up to this size are kept in the database (small-blobs.ts); 0: always the blob store */
  smallBlobBytes: number;
}

const HASH_EXAMPLE = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';

// The request schemas check meta's limits; a size over the file limit answers 413, not 422, so
// create-file checks it (FileLimits).
export const fileInput = built((metaLimits: MetaLimits) =>
  z
    .object({
      name: text(255, 1),
      category: Category.default('attachment'),
      data: z.string().optional().meta({ description: 'Base64 content (inline upload)' }),
      mime: mime.optional(),
      sha256: sha256.optional().meta({ description: 'Hex SHA-256 of the bytes; required without data', example: HASH_EXAMPLE }),
      size: z.number().int().min(0).optional().meta({ description: 'Bytes; over the file limit answers 413', example: 48213 }),
      key: text(255, 1).optional(),
      desc: text(1024).default(''),
      embeddable: z.boolean().default(false),
      private: z.boolean().default(false),
      meta: meta(metaLimits).default({}),
      retain_until: RetainUntil.optional(),
      retention_mode: RetentionMode.optional().meta({ description: 'With retain_until; governance by default' }),
    })
    .superRefine((v, ctx) => {
      if (v.retention_mode !== undefined && v.retain_until === undefined)
        ctx.addIssue({ code: 'custom', path: ['retain_until'], message: 'is required with retention_mode' });
      if (v.data !== undefined) return;
      for (const f of ['mime', 'sha256', 'size'] as const)
        if (v[f] === undefined) ctx.addIssue({ code: 'custom', path: [f], message: 'is required when data is absent' });
    })
    .meta({ id: 'FileInput' }),
);

export type FileInput = z.infer<ReturnType<typeof fileInput>>;

export const fileUpdate = built((metaLimits: MetaLimits) =>
  z
    .object({
      desc: text(1024).optional(),
      meta: meta(metaLimits).optional(),
      private: z.boolean().optional(),
      embeddable: z.boolean().optional(),
      retain_until: RetainUntil.optional().meta({ description: 'Extends the retention (never shortens it)' }),
      retention_mode: RetentionMode.optional().meta({ description: 'governance may become compliance, never the reverse' }),
    })
    .meta({ id: 'FileUpdate' }),
);

export type FileUpdate = z.infer<ReturnType<typeof fileUpdate>>;

const size = z.number().int().min(0).meta({ description: 'Bytes', example: 48213 });
const hash = z.string().meta({ description: 'Lowercase hex SHA-256 of the bytes', example: HASH_EXAMPLE });

/** Who made a version (docs/api.md, Versions): recorded as it was then; null before it was recorded. */
export const CreatedBy = z
  .object({
    type: z.enum(['app', 'user', 'owner_key', 'admin']),
    id: z.string().nullable().meta({ description: "The app's, user's or API key's id" }),
    name: z.string().meta({ description: "The app's name, the user's name (else email), or the API key's prefix", example: 'Invoicer' }),
  })
  .meta({ id: 'CreatedBy', description: 'Who made this version; null for versions made before this was recorded' });
export type CreatedBy = z.infer<typeof CreatedBy>;

export const RestoredFrom = z
  .object({ id: recordId, version: z.number().int().min(1).meta({ example: 2 }) })
  .meta({ id: 'RestoredFrom', description: 'The version a restore copied (POST …/restore); null otherwise' });
export type RestoredFrom = z.infer<typeof RestoredFrom>;

const version = z
  .number()
  .int()
  .min(1)
  .meta({ example: 3 })
  .nullable()
  .meta({ description: 'The version number in its identity (1, 2, …); null while a placeholder' });
const history = { version, created_by: CreatedBy.nullable(), restored_from: RestoredFrom.nullable() };

export const PreviousVersion = z
  .object({
    id: recordId,
    name: z.string().meta({ description: 'The file name this version was stored under', example: 'invoice-2026-0042.pdf' }),
    hash,
    size,
    desc: z.string(),
    ...history,
    retention: VersionRetention,
    legal_hold: z.boolean(),
    created_at: timestamp,
  })
  .meta({ id: 'PreviousVersion' });
export type PreviousVersion = z.infer<typeof PreviousVersion>;

export const FileRecord = z
  .object({
    id: recordId,
    entry_id: recordId,
    name: z.string().meta({ example: 'invoice-2026-0042.pdf' }),
    category: Category,
    key: z.string().optional(),
    desc: z.string(),
    mime: z.string().meta({ example: 'application/pdf' }),
    size,
    hash,
    url: z.string().meta({ description: 'Signed link: PUT the bytes here while stored is false; GET them after' }),
    stored: z.boolean(),
    embeddable: z.boolean(),
    private: z.boolean(),
    meta: z.record(z.string(), z.string()).meta({ example: { source: 'erp' } }),
    facts: InvoiceFacts.nullable(),
    ...history,
    retention: VersionRetention,
    legal_hold: z.boolean().meta({ description: "The entry's legal hold (PUT …/entries/{id}/legal-hold)" }),
    previous: z.array(PreviousVersion).optional().meta({ description: 'Earlier versions, newest first' }),
    created_at: timestamp,
  })
  .meta({ id: 'FileRecord' });

export type FileRecord = z.infer<typeof FileRecord>;

/** What `PUT {url}` answers a caller without the owner's credentials: no more than `GET {url}` tells. */
export const FileAtUrl = FileRecord.pick({ id: true, name: true, mime: true, size: true, hash: true, url: true, stored: true }).meta({
  id: 'FileAtUrl',
  description: "A file as its url shows it without the owner's credentials: what GET of the url tells, no history",
});
export type FileAtUrl = z.infer<typeof FileAtUrl>;

export const FileList = z.object({ list: z.array(FileRecord) }).meta({ id: 'FileList' });
export type FileList = z.infer<typeof FileList>;

export const FileParams = z.object({ entry_id: uuid, id: uuid });

/** A link lasts at most 7 days (docs/api.md, Links). */
export const MAX_LINK_SECONDS = 7 * 24 * 3600;

export const LinkInput = z
  .object({
    expires_in: z
      .number()
      .int()
      .min(1)
      .max(MAX_LINK_SECONDS)
      .meta({ description: 'Seconds the link works: 1 … 604800 (7 days)', example: 3600 }),
  })
  .meta({ id: 'LinkInput' });
export type LinkInput = z.infer<typeof LinkInput>;

export const FileLinkRecord = z
  .object({
    url: z.string().meta({ description: 'GET/HEAD the bytes of this version without credentials until expires_at' }),
    expires_at: timestamp,
  })
  .meta({ id: 'FileLink' });
