// An entry as the API shows it.
import type { Entry } from '../db/generated/client';
import type { EntryRecord } from '../schemas/entries';

export function presentEntry(e: Entry): EntryRecord {
  return {
    id: e.id,
    ...(e.key !== null ? { key: e.key } : {}),
    folder: e.folder,
    name: e.name,
    meta: e.meta as Record<string, string>,
    sandbox: e.sandbox,
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
  };
}
