// Server start-up: open (and so migrate) the database, check the blob store, sweep abandoned
// uploads (then every 10 minutes), print the URL and, on an instance with no console user yet,
// the one-time setup link.
import { issueSetupToken } from './access/setup';
import { config } from './config';
import { database } from './db/client';
import { sweepUploads } from './silo/files/sweep-uploads';
import { blobStore } from './storage';

/** announce(), and on failure (bad configuration, unreachable database, unwritable data
 * directory) a one-line reason and exit 1 instead of a server that answers 500s. */
export async function start() {
  try {
    await announce();
  } catch (err) {
    console.error(`Silo cannot start: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}

export async function announce() {
  const c = config();
  const db = await database();
  await blobStore().check();
  const base = (c.PUBLIC_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/+$/, '');
  console.log(`Silo is ready at ${base} (database: ${db.kind === 'pglite' ? `embedded, ${c.DATA_DIR}/db` : 'PostgreSQL'}; files: ${c.storageDir})`);
  const sweep = () => sweepUploads(db.prisma, blobStore()).catch((err) => console.error('upload sweep failed', err));
  await sweep();
  setInterval(sweep, 10 * 60 * 1000).unref();
  const token = await issueSetupToken(db.prisma);
  if (token) console.log(`One-time setup link (creates the first admin): ${base}/setup?token=${token}`);
}
