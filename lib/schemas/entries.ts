// Payloads of the entry endpoints (docs/api.md, Entries).
import { z } from 'zod';
import { FileRecord } from './files';
import { InvoiceFacts } from './invoice-facts';
import { listOf, listQuery, meta, plain, recordId, text, timestamp, type MetaLimits, built } from './common';
import { day } from './dates';

export const entryInput = built((metaLimits: MetaLimits) =>
  z
    .object({
      key: text(255, 1).optional().meta({ description: 'Unique per owner and environment' }),
      folder: text(255).default(''),
      name: text(255).default(''),
      meta: meta(metaLimits).default({}),
    })
    .meta({ id: 'EntryInput' }),
);
export type EntryInput = z.infer<ReturnType<typeof entryInput>>;

export const entryUpdate = built((metaLimits: MetaLimits) =>
  z
    .object({
      key: text(255, 1).nullable().optional(),
      folder: text(255).optional(),
      name: text(255).optional(),
      meta: meta(metaLimits).optional(),
    })
    .meta({ id: 'EntryUpdate' }),
);
export type EntryUpdate = z.infer<ReturnType<typeof entryUpdate>>;

export const EntryRecord = z
  .object({
    id: recordId,
    key: z.string().optional().meta({ example: 'INV-2026-0042' }),
    folder: z.string().meta({ example: 'invoices/2026' }),
    name: z.string().meta({ example: 'Invoice 2026-0042' }),
    meta: z.record(z.string(), z.string()).meta({ example: { source: 'erp' } }),
    sandbox: z.boolean(),
    legal_hold: z.boolean().meta({ description: 'Under a legal hold: nothing in the entry may be deleted (PUT …/legal-hold)' }),
    legal_hold_reason: z.string().optional().meta({ description: 'Why, while held', example: 'Tax audit 2026' }),
    file_count: z
      .number()
      .int()
      .min(0)
      .meta({ description: 'Its files as attachments shows them: each current file, or placeholder awaiting its bytes', example: 2 }),
    created_at: timestamp,
    updated_at: timestamp,
    facts: InvoiceFacts.nullable().meta({
      description:
        "The facts of its current versions: of the one stored last among those that have facts (an entry usually holds one invoice's XML)",
    }),
    attachments: z.array(FileRecord).optional().meta({ description: 'Current files; on GET of one entry' }),
  })
  .meta({ id: 'Entry' });
export type EntryRecord = z.infer<typeof EntryRecord>;

export const EntryList = listOf(EntryRecord, 'EntryList');
export type EntryList = z.infer<typeof EntryList>;

/** A fact filter (docs/api.md, Invoice facts): one current version's facts must match every one given. */
const factText = (description: string, example: string) =>
  text(255, 1).optional().meta({ minLength: 1, maxLength: 255, description, example });

export const entryListQuery = built((maxLimit: number) =>
  listQuery(maxLimit)
    .extend({
      folder: plain(1024)
        .optional()
        .meta({ description: 'Only entries in this folder or below it (`sales` matches `sales/2026`, not `salesforce`); empty: all' }),
      folder_exact: plain(1024).optional().meta({ description: 'Only entries in exactly this folder' }),
      key: plain(1024).optional().meta({ description: 'Only the entry with this key' }),
      retention: z.enum(['expired']).optional().meta({
        description:
          'expired: only entries holding a stored version whose retention has passed (not under a legal hold): what may now be deleted. Nothing is deleted by itself.',
      }),
      q: text(255, 1).optional().meta({
        minLength: 1,
        maxLength: 255,
        description:
          'Entries whose name, key or a current file name contains this, ignoring case (`%`, `_`, `\\` are literal). A search page reads past the entries that do not match.',
      }),
      seller_vat: factText('Entries with an invoice from this seller VAT id (case, spaces, dots and dashes ignored)', 'DE123456789'),
      buyer_vat: factText('Entries with an invoice to this buyer VAT id (case, spaces, dots and dashes ignored)', 'DE987654321'),
      number: factText('Entries with an invoice of exactly this number', 'RE-2026-0042'),
      currency: factText('Entries with an invoice in this currency (ISO 4217, any case)', 'EUR'),
      issued_from: day('Entries with an invoice issued on or after this day')
        .optional()
        .meta({ description: 'Entries with an invoice issued on or after this day', example: '2026-01-01' }),
      issued_to: day('Entries with an invoice issued on or before this day', '2026-12-31')
        .optional()
        .meta({ description: 'Entries with an invoice issued on or before this day', example: '2026-12-31' }),
    })
    .superRefine((q, ctx) => {
      if (q.folder !== undefined && q.folder_exact !== undefined)
        ctx.addIssue({ code: 'custom', path: ['folder_exact'], message: 'must not be given with folder' });
      if (q.issued_from !== undefined && q.issued_to !== undefined && q.issued_from > q.issued_to)
        ctx.addIssue({ code: 'custom', path: ['issued_to'], message: 'must not be before issued_from' });
    }),
);

/** GET /silo/v1/folders: every folder that holds entries, or a folder below it. */
export const FolderRecord = z
  .object({
    folder: z.string().meta({ example: 'sales/2026' }),
    entries: z.number().int().min(1).meta({ description: 'Entries in this folder and every folder below it', example: 12 }),
    subfolders: z.boolean().meta({ description: 'Whether a folder below it holds entries (what `?parent=` it would list)', example: true }),
  })
  .meta({ id: 'Folder' });
export type FolderRecord = z.infer<typeof FolderRecord>;

export const FolderList = listOf(FolderRecord, 'FolderList');
export type FolderList = z.infer<typeof FolderList>;

export const folderListQuery = built((maxLimit: number) =>
  listQuery(maxLimit).extend({
    parent: plain(1024).optional().meta({
      description:
        'Only the folders directly below this one (`sales` lists `sales/2026`, not `sales/2026/03`); empty: the top level. Absent: every folder',
    }),
  }),
);
