// The database's identity: a random id made once and kept in `settings`. The blob store records it
// (BlobStore.claim), so a store can never serve two databases. A dump restored elsewhere keeps the
// id, and so keeps its store; a new database gets a new one.
import { randomUUID } from 'node:crypto';
import type { Db } from './client';

const known = new WeakMap<Db, string>();

/** The id, made on first use. Two processes starting at once agree: the first insert wins, both read it. */
export async function databaseId(db: Db): Promise<string> {
  const cached = known.get(db);
  if (cached) return cached;
  await db.$executeRaw`INSERT INTO settings (name, value) VALUES ('database_id', ${randomUUID()}) ON CONFLICT (name) DO NOTHING`;
  const { value } = await db.setting.findUniqueOrThrow({ where: { name: 'database_id' } });
  known.set(db, value);
  return value;
}
