// A workspace row for domain tests of lib/silo, which may not import lib/access (no API keys made).
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import type { Scope } from '../db/scope';

export async function createTestOwner(db: Db, name: string) {
  return db.owner.create({ data: { id: randomUUID(), name } });
}

/** A workspace with one live entry, and the scope of its owner's live key: where file tests upload. */
export async function createTestEntry(db: Db, ownerName = 'Acme'): Promise<{ scope: Scope; entryId: string }> {
  const owner = await createTestOwner(db, ownerName);
  const entry = await db.entry.create({ data: { id: randomUUID(), ownerId: owner.id, sandbox: false, name: 'e' } });
  return { scope: { owners: [owner.id], sandbox: false }, entryId: entry.id };
}
