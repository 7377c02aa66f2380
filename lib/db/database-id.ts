// The database's identity: a random id made once and kept in `settings`. The blob store records it
// (BlobStore.claim), so a store can never serve two databases. A dump restored elsewhere keeps the
// id, and so keeps its store; a new database gets a new one.
import { randomUUID } from 'node:crypto';
import type { Db } from './client';

const known = new WeakMap<Db, string>();

/** The id, made on first use. Two processes starting at once agree: the first insert wins, both read it. */
export async function databaseId(db: Db): Promise<string> {
  const id = known.get(db) ?? (await ensureDatabaseId(db));
  known.set(db, id);
  return id;
}

/** The id from the database itself, made if missing (uncached). */
export async function ensureDatabaseId(db: Db): Promise<string> {
  await db.$executeRaw`INSERT INTO settings (name, value) VALUES ('database_id', ${randomUUID()}) ON CONFLICT (name) DO NOTHING`;
  return (await db.setting.findUniqueOrThrow({ where: { name: 'database_id' } })).value;
}
