// Retention rules, a version's retention and an entry's legal hold (docs/api.md, Retention).
import { z } from 'zod';
import { recordId, text, timestamp } from './common';
import { instant } from './dates';

/** A file's category (files.ts has the same enum: files.ts imports this module, not the reverse). */
const Category = z.enum(['format', 'attachment']);

export const RetentionMode = z
  .enum(['governance', 'compliance'])
  .meta({ description: 'governance: an administrator may override it; compliance: no one, not even the database' });
export type RetentionMode = z.infer<typeof RetentionMode>;

export const RETENTION_LIMITS = { years: 100, days: 36_500 } as const;

export const RetentionRuleInput = z
  .object({
    category: Category.optional().meta({ description: 'Only versions of this category' }),
    folder: text(255, 1)
      .transform((s) => s.replace(/\/+$/, ''))
      .optional()
      .meta({ description: 'Only entries in this folder or below it (`sales` covers `sales/2026`, not `salesforce`)' }),
    years: z.number().int().min(0).max(RETENTION_LIMITS.years).default(0).meta({ example: 10 }),
    days: z.number().int().min(0).max(RETENTION_LIMITS.days).default(0).meta({ example: 0 }),
    from: z
      .enum(['stored', 'end_of_year'])
      .default('end_of_year')
      .meta({ description: 'Counted from when a version is stored, or from the end of that calendar year (UTC)' }),
    mode: RetentionMode.default('governance'),
  })
  .strict()
  .meta({ id: 'RetentionRuleInput' });
export type RetentionRuleInput = z.infer<typeof RetentionRuleInput>;

export const RetentionRuleRecord = z
  .object({
    id: recordId,
    category: Category.optional(),
    folder: z.string().optional().meta({ example: 'invoices' }),
    years: z.number().int().min(0).max(RETENTION_LIMITS.years).meta({ example: 10 }),
    days: z.number().int().min(0).max(RETENTION_LIMITS.days).meta({ example: 0 }),
    from: z.enum(['stored', 'end_of_year']),
    mode: RetentionMode,
    created_at: timestamp,
  })
  .meta({ id: 'RetentionRule', description: 'Versions stored in a matching entry are kept until the date the rule gives' });
export type RetentionRuleRecord = z.infer<typeof RetentionRuleRecord>;

export const RetentionRuleList = z.object({ list: z.array(RetentionRuleRecord) }).meta({ id: 'RetentionRuleList' });

export const RetentionRulesQuery = z.object({
  apply_to_existing: z
    .enum(['true', 'false'])
    .optional()
    .meta({ description: 'true: also extend the matching versions stored before the rule (never shortens)' }),
});

/** A version's retention as its record shows it; null: none. */
export const VersionRetention = z
  .object({ mode: RetentionMode, retain_until: timestamp })
  .nullable()
  .meta({ id: 'VersionRetention', description: 'Until when the version may not be deleted; null: no retention' });

/** A date a caller asks a version be kept to: ISO 8601 with its offset, no later than 9999. */
export const RetainUntil = instant('Keep the version at least until then (ISO 8601)');

export const LegalHoldInput = z
  .object({
    hold: z.boolean(),
    reason: text(1024).default('').meta({ description: 'Why (shown with the hold)', example: 'Tax audit 2026' }),
  })
  .strict()
  .meta({ id: 'LegalHoldInput' });
export type LegalHoldInput = z.infer<typeof LegalHoldInput>;

export const LegalHoldRecord = z
  .object({ entry_id: recordId, hold: z.boolean(), reason: z.string() })
  .meta({ id: 'LegalHold', description: "An entry's legal hold: while on, nothing in the entry may be deleted" });
