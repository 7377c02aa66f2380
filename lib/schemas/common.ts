// Building blocks shared by the payload schemas. Lengths count Unicode code points (contract §4).
import { z } from 'zod';

const CONTROL = /[\u0000-\u001f\u007f]/;

export const codePoints = (s: string) => [...s].length;

/** A string of at most `max` code points, without control characters. */
export const text = (max: number, min = 0) =>
  z
    .string()
    .refine((s) => codePoints(s) >= min, min === 1 ? 'must not be empty' : `must be at least ${min} characters`)
    .refine((s) => codePoints(s) <= max, `must be at most ${max} characters`)
    .refine((s) => !CONTROL.test(s), 'must not contain control characters');

export const uuid = z
  .string()
  .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'must be a UUID')
  .transform((s) => s.toLowerCase());

export const timestamp = z.string().meta({ format: 'date-time', example: '2026-11-22T12:00:00.000Z' });

export interface MetaLimits {
  keys: number;
  keyLength: number;
  valueLength: number;
}

export const DEFAULT_META_LIMITS: MetaLimits = { keys: 50, keyLength: 64, valueLength: 1024 };

/** Key-value pairs with the limits of contract §6. */
export const meta = (limits: MetaLimits = DEFAULT_META_LIMITS) =>
  z
    .record(z.string(), z.string())
    .superRefine((m, ctx) => {
      const keys = Object.keys(m);
      if (keys.length > limits.keys) ctx.addIssue({ code: 'custom', message: `must have at most ${limits.keys} keys` });
      for (const k of keys) {
        if (codePoints(k) < 1 || codePoints(k) > limits.keyLength)
          ctx.addIssue({ code: 'custom', message: `keys must be 1 to ${limits.keyLength} characters` });
        else if (codePoints(m[k]) > limits.valueLength)
          ctx.addIssue({ code: 'custom', message: `values must be at most ${limits.valueLength} characters` });
      }
    })
    .meta({ description: 'Additional key-value pairs (strings)', example: { source: 'erp' } });

export const ErrorSchema = z
  .object({
    code: z.number().int().meta({ example: 422 }),
    key: z.string().meta({ example: 'validation' }),
    message: z.string().meta({ example: 'sha256 must be 64 hexadecimal characters' }),
    fields: z.record(z.string(), z.string()).optional(),
  })
  .meta({ id: 'Error', description: 'Every error, for every status and route (contract §1)' });

export const listOf = <T extends z.ZodType>(item: T, id: string) =>
  z
    .object({
      list: z.array(item),
      limit: z.number().int(),
      cursor: z.string().optional().meta({ description: 'The cursor this page was asked for' }),
      next_cursor: z.string().optional().meta({ description: 'Pass as ?cursor= for the next page; absent on the last' }),
    })
    .meta({ id });

/** `?limit=` (1 to MAX_LIST_LIMIT, default 20) and `?cursor=` of every list. */
export const listQuery = (maxLimit: number) =>
  z.object({
    limit: z.coerce.number().int().min(1).max(maxLimit).default(Math.min(20, maxLimit)),
    cursor: z.string().max(200).optional(),
  });
