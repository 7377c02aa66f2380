// An auditor's key (docs/api.md, Auditor keys): the create body, the records, the one source of
// their validation, types and OpenAPI.
import { z } from 'zod';
import { recordId, text, timestamp } from './common';
import { day } from './dates';

/** The longest a key may live, in seconds: 366 days (a year's audit, leap year included). */
export const AUDITOR_KEY_MAX_SECONDS = 366 * 86_400;
/** The longest note, in code points. */
export const AUDITOR_NOTE_MAX = 1024;

export const AuditorKeyInput = z
  .object({
    from: day('The first day of the period (UTC), included: versions stored from its midnight on'),
    to: day('The day after the period (UTC), excluded: versions stored before its midnight'),
    expires_in: z
      .number()
      .int('must be a whole number of seconds')
      .min(1, 'must be at least 1')
      .max(AUDITOR_KEY_MAX_SECONDS, `must be at most ${AUDITOR_KEY_MAX_SECONDS} (366 days)`)
      .meta({ description: 'Seconds until the key stops working (1 … 31,622,400 = 366 days)', example: 2_592_000 }),
    note: text(AUDITOR_NOTE_MAX)
      .default('')
      .meta({ description: `Who the key is for and why (at most ${AUDITOR_NOTE_MAX} characters)`, example: 'Tax audit 2025, KPMG' }),
  })
  .refine((k) => k.from < k.to, { path: ['to'], message: 'must be after from' })
  .meta({ id: 'AuditorKeyInput' });
export type AuditorKeyInput = z.infer<typeof AuditorKeyInput>;

const fields = {
  id: recordId,
  prefix: z.string().meta({ description: 'The first characters of the key, to recognise it', example: 'silo_audit_AbCd…' }),
  sandbox: z.boolean(),
  from: z.string().meta({ description: 'The first day of the period (UTC), included', example: '2025-01-01' }),
  to: z.string().meta({ description: 'The day after the period (UTC), excluded', example: '2026-01-01' }),
  expires_at: timestamp,
  note: z.string(),
  created_at: timestamp,
  revoked_at: timestamp.nullable(),
};

export const AuditorKeyRecord = z.object(fields).meta({ id: 'AuditorKey', description: 'An auditor key, without its secret' });
export type AuditorKeyRecord = z.infer<typeof AuditorKeyRecord>;

export const NewAuditorKey = z
  .object({ ...fields, key: z.string().meta({ description: 'The key: shown in this response only', example: 'silo_audit_…' }) })
  .meta({ id: 'NewAuditorKey', description: 'A new auditor key; `key` is shown in this response only' });
export type NewAuditorKey = z.infer<typeof NewAuditorKey>;

export const AuditorKeyList = z.object({ list: z.array(AuditorKeyRecord) }).meta({ id: 'AuditorKeyList' });
