// The store's marker, <root>/silo-store.json: the id of the database a blob store belongs to, so
// a store is never shared by two databases (two instances on one PostgreSQL share it; a second
// database is refused: StoreOfAnotherDatabase).
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { StoreOfAnotherDatabase } from './blob-store';
import { fsyncDir } from './blob-dirs';
import type { DiskIo } from './local-disk';

export const STORE_MARKER = 'silo-store.json';

/** Marks the store at `root` as `databaseId`'s, or throws StoreOfAnotherDatabase when another's. */
export async function claimStore(io: DiskIo, root: string, databaseId: string): Promise<void> {
  const marker = path.join(root, STORE_MARKER);
  for (;;) {
    const recorded = await recordedDatabase(io, marker);
    if (recorded === databaseId) return;
    if (recorded !== undefined) throw new StoreOfAnotherDatabase(root, recorded, databaseId);
    // Unclaimed. The record is written and synced aside, then linked into place: link fails
    // when the marker exists, so of two processes claiming at once exactly one wins and the
    // other reads the winner's record on the next round; a crash never leaves a half record.
    await io.mkdir(root, { recursive: true });
    const tmp = `${marker}.${randomUUID()}.tmp`;
    const fh = await io.open(tmp, 'wx');
    try {
      await fh.writeFile(`${JSON.stringify({ database_id: databaseId, claimed_at: new Date().toISOString() })}\n`);
      await fh.sync();
    } finally {
      await fh.close();
    }
    try {
      await io.link(tmp, marker);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw err;
    } finally {
      await io.unlink(tmp).catch(() => {});
    }
    await fsyncDir(io, root);
    return;
  }
}

/** The database id in the store's marker; undefined when the store is unclaimed. */
async function recordedDatabase(io: DiskIo, marker: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await io.readFile(marker, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  let id: unknown;
  try {
    id = (JSON.parse(text) as { database_id?: unknown }).database_id;
  } catch {}
  if (typeof id !== 'string' || !id)
    throw new Error(
      `the blob store's ${marker} is unreadable; it should name the database the store belongs to (see docs/api.md, Storage)`,
    );
  return id;
}
