// A workspace row for domain tests of lib/silo, which may not import lib/access (no API keys made).
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';

export async function createTestOwner(db: Db, name: string) {
  return db.owner.create({ data: { id: randomUUID(), name } });
}
