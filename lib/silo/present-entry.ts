// An entry as the API shows it.
import type { Entry } from '../db/generated/client';
import type { EntryRecord } from '../schemas/entries';

/** `fileCount`: the files its attachments show (lib/silo/entry-rows.ts, FILE_COUNT). */
export function presentEntry(e: Entry, fileCount: number): EntryRecord {
  return {
    id: e.id,
    ...(e.key !== null ? { key: e.key } : {}),
    folder: e.folder,
    name: e.name,
    meta: e.meta as Record<string, string>,
    sandbox: e.sandbox,
    legal_hold: e.legalHold,
    ...(e.legalHold ? { legal_hold_reason: e.legalHoldReason } : {}),
    file_count: fileCount,
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
  };
}
