// An entry as the API shows it.
import type { Entry } from '../db/generated/client';
import { presentFacts } from './files/file-facts';
import type { EntryRecord } from '../schemas/entries';

/**
 * `fileCount`: the files its attachments show (lib/silo/entry-rows.ts, FILE_COUNT); `facts`: its
 * current versions' (ENTRY_FACTS).
 */
export function presentEntry(e: Entry, fileCount: number, facts: unknown = null): EntryRecord {
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
    facts: presentFacts(facts),
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
  };
}
