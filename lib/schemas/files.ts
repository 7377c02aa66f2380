// Payloads of the file endpoints: seed §2.3 and §4.2–4.3, contract §4.
import { z } from 'zod';
import { meta, text, timestamp, uuid, type MetaLimits } from './common';
import { MAX_MEDIA_TYPE_LENGTH, isMediaType } from './media-type';

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

export interface FileLimits {
  maxFileBytes: number;
  meta: MetaLimits;
}

export const fileInput = (limits: FileLimits) =>
  z
    .object({
      name: text(255, 1),
      category: Category.default('attachment'),
      data: z.string().optional().meta({ description: 'Base64 content (inline upload)' }),
      mime: mime.optional(),
      sha256: sha256.optional().meta({ description: 'Hex SHA-256 of the bytes; required without data' }),
      size: z.number().int().min(0).optional().meta({ description: 'Bytes; over the file limit answers 413' }),
      key: text(255, 1).optional(),
      desc: text(1024).default(''),
      embeddable: z.boolean().default(false),
      private: z.boolean().default(false),
      meta: meta(limits.meta).default({}),
    })
    .superRefine((v, ctx) => {
      if (v.data !== undefined) return;
      for (const f of ['mime', 'sha256', 'size'] as const)
        if (v[f] === undefined) ctx.addIssue({ code: 'custom', path: [f], message: 'is required when data is absent' });
    })
    .meta({ id: 'FileInput' });

export type FileInput = z.infer<ReturnType<typeof fileInput>>;

export const fileUpdate = (limits: FileLimits) =>
  z
    .object({
      desc: text(1024).optional(),
      meta: meta(limits.meta).optional(),
      private: z.boolean().optional(),
      embeddable: z.boolean().optional(),
    })
    .meta({ id: 'FileUpdate' });

export type FileUpdate = z.infer<ReturnType<typeof fileUpdate>>;

export const PreviousVersion = z
  .object({ id: z.string(), hash: z.string(), size: z.number().int(), created_at: timestamp })
  .meta({ id: 'PreviousVersion' });

export const FileRecord = z
  .object({
    id: z.string().meta({ format: 'uuid' }),
    entry_id: z.string().meta({ format: 'uuid' }),
    name: z.string(),
    category: Category,
    key: z.string().optional(),
    desc: z.string().optional(),
    mime: z.string(),
    size: z.number().int(),
    hash: z.string().meta({ description: 'Lowercase hex SHA-256 of the bytes' }),
    url: z.string().meta({ description: 'Signed link: PUT the bytes here while stored is false; GET them after' }),
    stored: z.boolean(),
    embeddable: z.boolean(),
    private: z.boolean(),
    meta: z.record(z.string(), z.string()),
    previous: z.array(PreviousVersion).optional(),
    created_at: timestamp,
  })
  .meta({ id: 'FileRecord' });

export type FileRecord = z.infer<typeof FileRecord>;

export const FileList = z.object({ list: z.array(FileRecord) }).meta({ id: 'FileList' });

export const FileParams = z.object({ entry_id: uuid, id: uuid });
