// Building blocks shared by the payload schemas. Lengths count Unicode code points (docs/api.md, Input).
import { z } from 'zod';
import { ERROR_KEYS } from './error-keys';
import { ANY_CASE_UUID } from './uuid';

const CONTROL = /[\u0000-\u001f\u007f]/;
// PostgreSQL cannot store NUL in text or jsonb, and an unpaired UTF-16 surrogate is no character
// at all: stored, it would come back changed (text) or fail the query (jsonb). With the `u` flag,
// \p{Cs} matches only surrogates that are not half of a pair.
const UNSTORABLE = /[\u0000\p{Cs}]/u;

export const NOT_STORABLE = 'must not contain NUL characters or unpaired surrogates';

/** Can PostgreSQL keep this string exactly as it is? */
export const storable = (s: string) => !UNSTORABLE.test(s);

export const codePoints = (s: string) => [...s].length;

/**
 * A schema factory that builds each schema once per distinct argument (limits come from the
 * configuration, so there are few). Building and compiling a zod schema costs more than a small
 * request's own work: no request may pay it.
 */
export function built<A, S>(make: (arg: A) => S): (arg: A) => S {
  const schemas = new Map<string, S>();
  return (arg: A) => {
    const key = JSON.stringify(arg) ?? '';
    let schema = schemas.get(key);
    if (schema === undefined) {
      schema = make(arg);
      schemas.set(key, schema);
    }
    return schema;
  };
}

/** A string of at most `max` code points, without control characters or unpaired surrogates. */
export const text = (max: number, min = 0) =>
  z
    .string()
    .refine((s) => codePoints(s) >= min, min === 1 ? 'must not be empty' : `must be at least ${min} characters`)
    .refine((s) => codePoints(s) <= max, `must be at most ${max} characters`)
    .refine((s) => !CONTROL.test(s), 'must not contain control characters')
    .refine(storable, NOT_STORABLE);

/** A query parameter or other short string that reaches the database: no NUL, no unpaired surrogates. */
export const plain = (max: number) => z.string().max(max, `must be at most ${max} characters`).refine(storable, NOT_STORABLE);

export { isUuid, UUID } from './uuid';

export const uuid = z
  .string()
  .regex(ANY_CASE_UUID, 'must be a UUID')
  .transform((s) => s.toLowerCase());

/** A record's id in a response. */
export const recordId = z.string().meta({ format: 'uuid', example: '0b9d4a52-5c1e-4f4e-9d3a-6a2f0c1b7e21' });

export const timestamp = z.string().meta({ format: 'date-time', example: '2026-11-22T12:00:00.000Z' });

export interface MetaLimits {
  keys: number;
  keyLength: number;
  valueLength: number;
}

/** Contract §6; config.ts takes its MAX_META_* defaults from here. */
export const DEFAULT_META_LIMITS: MetaLimits = { keys: 50, keyLength: 64, valueLength: 1024 };

/**
 * Key-value pairs with the limits of docs/api.md, Limits. Keys are names: no control characters. Values
 * are free text (line breaks allowed) but, like every string, without NUL or unpaired surrogates.
 */
export const meta = built((limits: MetaLimits = DEFAULT_META_LIMITS) =>
  z
    .record(z.string(), z.string())
    .superRefine((m, ctx) => {
      const keys = Object.keys(m);
      if (keys.length > limits.keys) ctx.addIssue({ code: 'custom', message: `must have at most ${limits.keys} keys` });
      for (const k of keys) {
        if (codePoints(k) < 1 || codePoints(k) > limits.keyLength)
          ctx.addIssue({ code: 'custom', message: `keys must be 1 to ${limits.keyLength} characters` });
        else if (CONTROL.test(k) || !storable(k))
          ctx.addIssue({ code: 'custom', message: 'keys must not contain control characters or unpaired surrogates' });
        else if (codePoints(m[k]) > limits.valueLength)
          ctx.addIssue({ code: 'custom', path: [k], message: `must be at most ${limits.valueLength} characters` });
        else if (!storable(m[k])) ctx.addIssue({ code: 'custom', path: [k], message: NOT_STORABLE });
      }
    })
    .meta({ description: 'Additional key-value pairs (strings)', example: { source: 'erp' } }),
);

export const ErrorSchema = z
  .object({
    code: z.number().int().min(400).max(599).meta({ description: 'The HTTP status', example: 422 }),
    key: z
      .enum(ERROR_KEYS)
      .meta({ description: 'A stable machine word: each key always comes with the same status', example: 'validation' }),
    message: z.string().meta({ example: 'sha256 must be 64 hexadecimal characters' }),
    fields: z
      .record(z.string(), z.string())
      .optional()
      .meta({ description: 'Invalid fields and what is wrong with each (422)', example: { sha256: 'must be 64 hexadecimal characters' } }),
  })
  .meta({ id: 'Error', description: 'Every error, for every status and route (docs/api.md, Errors)' });

export const listOf = <T extends z.ZodType>(item: T, id: string) =>
  z
    .object({
      list: z.array(item),
      limit: z.number().int().min(0).meta({ description: 'The page size asked for (or the default)', example: 20 }),
      cursor: z.string().optional().meta({ description: 'The cursor this page was asked for' }),
      next_cursor: z.string().optional().meta({ description: 'Pass as ?cursor= for the next page; absent on the last' }),
    })
    .meta({ id });

/** `?limit=` (1 to MAX_LIST_LIMIT, default 20) and `?cursor=` of every list. */
export const listQuery = built((maxLimit: number) =>
  z.object({
    limit: z.coerce.number().int().min(1).max(maxLimit).default(Math.min(20, maxLimit)).meta({ description: 'Page size' }),
    cursor: plain(200).optional().meta({ description: 'The next_cursor of the previous page' }),
  }),
);
