// Server start-up: lock the embedded database's directory, open (and so migrate) the database,
// bind the blob store to it and check it, sweep abandoned uploads and unreferenced blobs (then
// every 10 minutes), print where it listens and its public URL and, while no administrator
// exists, the one-time setup link (the one still valid, never a replacement). Starts the event log's
// checkpoints and the webhook deliveries.
import { mkdirSync } from 'node:fs';
import { issueSetupToken } from './access/issue-setup-token';
import { forgetSetupToken, keepSetupToken, readKeptSetupToken } from './kept-setup-token';
import { log } from './log';
import { runExclusively } from './db/job-lease';
import { forgetEndedWindows } from './db/rate-windows';
import { startCheckpoints } from './events/checkpoint-job';
import { webhookSettings } from './http/webhook-settings';
import { autovacuumCoversWebhooks } from './webhooks/autovacuum';
import { startWebhooks } from './webhooks/engine';
import { pinnedTsaCert } from './events/timestamp';
import { auditKey } from './events/signing-key';
import { config, type Config } from './config';
import { database, type Database } from './db/client';
import { failureLevel } from './db/db-errors';
import { singleRoleWarning } from './db/runtime-grants';
import { embeddedLockFile, lockDataDir } from './db/data-dir-lock';
import { sweepBlobs, sweepHorizon } from './silo/files/sweep-blobs';
import { sweepExportDirs } from './silo/export/export-dirs';
import { sweepUploads } from './silo/files/sweep-uploads';
import { releaseLeasesOfDeadProcesses } from './silo/files/upload-lock';
import { bindStore, movedDefaultProblem } from './silo/store-binding';
import { blobStore, filesStore } from './storage';
import type { BlobStore } from './storage/blob-store';
import { LocalDiskStore } from './storage/local-disk';

const SWEEP_EVERY_MS = 10 * 60 * 1000;
/** How often an idle instance looks for new records and due retries (the latency of a delivery). */
const WEBHOOK_POLL_MS = 500;

/** announce(), and on failure (bad configuration, unreachable database, unwritable data
 * directory, another database's blob store) a one-line reason and exit 1 instead of a server
 * that answers 500s. */
export async function start() {
  try {
    await announce();
  } catch (err) {
    log.fatal(`Silo cannot start: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}

async function announce() {
  const c = config();
  // PGlite has no lock of its own: a second server (or fsck) on this directory would corrupt it.
  if (!c.DATABASE_URL) {
    mkdirSync(c.DATA_DIR, { recursive: true });
    lockDataDir(embeddedLockFile(c.DATA_DIR), 'a Silo server');
  }
  const db = await database();
  // One role on PostgreSQL: say once what it can do because it owns the tables (runtime-grants.ts).
  if (db.kind === 'postgres' && !c.DATABASE_OWNER_URL) {
    const warning = await singleRoleWarning(db.sql);
    if (warning) log.warn(warning);
  }
  await releaseLeasesOfDeadProcesses(db.prisma);
  const store = blobStore();
  await refuseMovedDefault(c, db, store);
  await bindStore(db.prisma, store).catch((err) => {
    if ((err as Error)?.name !== 'StoreOfAnotherDatabase') throw err;
    throw new Error(
      `${(err as Error).message}. Set STORAGE_DIR to this database's own folder (README, Configuration); if that database no longer exists, remove silo-store.json from the store to let this one claim it`,
    );
  });
  await store.check();
  // Made before the first request can place a blob: every blob placed from now on is the sweep's.
  const horizon = await sweepHorizon(db.prisma);
  const port = c.PORT;
  const base = (c.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  // scripts/serve.mjs listens on HOSTNAME, else on every interface.
  const host = c.HOSTNAME ?? '0.0.0.0';
  const listening = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const files = c.STORAGE === 's3' ? `s3://${c.S3_BUCKET}` : c.storageDir;
  log.info(
    { url: base, listening, database: db.kind, files },
    `Silo is ready: listening on ${listening}, ${c.PUBLIC_URL ? 'public URL' : 'open'} ${base} (database: ${db.kind === 'pglite' ? `embedded, ${c.DATA_DIR}/db` : 'PostgreSQL'}; files: ${files})`,
  );
  const bytes = filesStore(db.prisma);
  await sweepUploads(db.prisma, bytes).catch((err) => log[failureLevel(err)]({ err }, 'upload sweep failed'));
  // An export's plan files left by a killed server of this host (export-dirs.ts).
  const left = await sweepExportDirs().catch((err) => {
    log.warn({ err }, 'could not look for export directories left behind');
    return [];
  });
  if (left.length)
    log.info({ removed: left }, `removed ${left.length} export director${left.length === 1 ? 'y' : 'ies'} left by a server that is gone`);
  // The blob sweep lists the whole store: it runs beside the server, not before it.
  const sweep = sweeper(db, bytes, horizon);
  void sweep(false);
  setInterval(() => void sweep(true), SWEEP_EVERY_MS).unref();
  // A bad AUDIT_SIGNING_KEY stops the start, not the first checkpoint a minute later.
  await auditKey();
  startCheckpoints(
    db.prisma,
    c.AUDIT_CHECKPOINT_SECONDS * 1000,
    c.AUDIT_TSA_URL ? { url: c.AUDIT_TSA_URL, pinned: pinnedTsaCert() } : undefined,
  );
  // Every instance delivers webhooks; a lease per delivery keeps each attempt to one of them.
  // Their tables are vacuumed by the engine where no autovacuum does it (autovacuum.ts).
  const vacuum = db.kind === 'pglite' || !(await autovacuumCoversWebhooks(db.prisma));
  if (vacuum && db.kind === 'postgres')
    log.warn(
      'autovacuum does not look after the webhook tables on this PostgreSQL server (autovacuum or track_counts off, or autovacuum_enabled off on them): the webhook engine vacuums them itself',
    );
  startWebhooks(db.prisma, await webhookSettings(), { pollMs: WEBHOOK_POLL_MS, vacuum });
  await announceSetupLink(db, c.DATA_DIR, base);
}

/** The link that is out, if this instance issued it (now or at an earlier start), else where it is. */
async function announceSetupLink(db: Database, dataDir: string, base: string) {
  const kept = await readKeptSetupToken(dataDir).catch(() => undefined);
  const link = await issueSetupToken(db.prisma, { kept });
  if (!link) {
    if (kept) await forgetSetupToken(dataDir).catch(() => {});
    return;
  }
  const until = link.expiresAt.toISOString();
  if (link.kind === 'elsewhere') {
    log.info(
      { setup_link_issued_at: link.issuedAt.toISOString(), setup_link_expires_at: until },
      `No administrator yet; the one-time setup link printed by another instance (or an earlier start on another data directory) at ${link.issuedAt.toISOString()} stays valid until ${until}: use that one. This start does not replace it; one started after it expires prints a new one.`,
    );
    return;
  }
  if (link.token !== kept)
    await keepSetupToken(dataDir, link.token).catch((err) =>
      log.warn({ err }, 'could not keep the setup token in DATA_DIR: a restart before it expires will not print the link again'),
    );
  log.info(
    { setup_link_expires_at: until },
    `One-time setup link (creates the first admin): ${base}/setup?token=${link.token} (valid until ${until})`,
  );
}

/**
 * One sweep at a time: a long one (a large store) is not started again while it runs, and of
 * several instances on one database only the holder of the `sweep` job lease runs it.
 */
function sweeper(db: Database, store: BlobStore, placedAfter: Date) {
  let running = false;
  return async (uploads: boolean) => {
    if (running) return;
    running = true;
    try {
      await runExclusively(db.prisma, 'sweep', SWEEP_EVERY_MS, async () => {
        if (uploads) await sweepUploads(db.prisma, store).catch((err) => log[failureLevel(err)]({ err }, 'upload sweep failed'));
        const t = performance.now();
        const swept = await sweepBlobs(db.prisma, store, { placedAfter });
        if (swept.freed) log.info({ freed: swept.freed }, `Freed ${swept.freed} unreferenced blob(s)`);
        const seconds = Math.round(performance.now() - t) / 1000;
        log.info({ ...swept, seconds }, `Blob sweep done: ${swept.checked} blob(s) checked in ${seconds} s`);
        await forgetEndedWindows(db.prisma);
      });
    } catch (err) {
      log[failureLevel(err)]({ err }, 'blob sweep failed');
    } finally {
      running = false;
    }
  };
}

async function refuseMovedDefault(c: Config, db: Database, store: BlobStore) {
  if (!c.DATABASE_URL || c.STORAGE_DIR) return;
  const oldDir = `${c.DATA_DIR}/blobs`;
  const problem = await movedDefaultProblem(db.prisma, { store, storeDir: c.storageDir, oldStore: new LocalDiskStore(oldDir), oldDir });
  if (problem) throw new Error(problem);
}
