// `npm run restore -- FILE [--check]`: loads a backup (GET /admin/v1/backup) into the database and
// the store this environment configures (same environment and .env files as `npm start`): the
// embedded database and a directory, or PostgreSQL (as DATABASE_OWNER_URL's role when set) and a
// directory or S3. The backup is checked whole first, naming the first member that differs; the
// target must hold no data. --check only checks the backup. Exit 0: restored (or checked); 1:
// refused (the backup is damaged, or the target is not empty or not of the backup's schema);
// 2: it could not run. docs/operations.md, Backup and restore.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadEnvConfig } from '@next/env';
import { config } from '../lib/config';
import { openDatabase, setDatabase } from '../lib/db/client';
import { configuredDatabase } from '../lib/db/configured-database';
import { embeddedLockFile, lockDataDir } from '../lib/db/data-dir-lock';
import { BackupRefused, checkBackup } from '../lib/silo/backup/check-backup';
import { restoreBackup } from '../lib/silo/backup/restore-backup';
import { SpillFile, spilledLines } from '../lib/silo/export/spill';
import { bindStore } from '../lib/silo/store-binding';
import { blobStore } from '../lib/storage';
import { DatabaseStore } from '../lib/storage/database-store';

const USAGE = 'usage: npm run restore -- FILE [--check]';
const started = performance.now();
/** Seconds since the start, for each line of progress. */
const at = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const files = args.filter((a) => !a.startsWith('--'));
  const unknown = args.filter((a) => a.startsWith('--') && a !== '--check');
  if (files.length !== 1 || unknown.length) {
    console.error(unknown.length ? `unknown option ${unknown[0]}\n${USAGE}` : USAGE);
    return 2;
  }
  const file = path.resolve(files[0]);
  loadEnvConfig(process.cwd(), false, { info: () => {}, error: console.error });
  const c = config();
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'silo-restore-'));
  try {
    console.log(`checking ${file}`);
    const offsets = await SpillFile.create(path.join(tmp, 'blobs'));
    let last = Date.now();
    const checked = await checkBackup(file, {
      progress: (bytes) => {
        if (Date.now() - last < 10_000) return;
        last = Date.now();
        console.error(`… ${(bytes / 1e6).toFixed(0)} MB checked`);
      },
      blob: (m) => offsets.write(`${JSON.stringify([m.name, m.offset, m.size])}\n`),
    });
    const offsetsFile = await offsets.close();
    const { manifest } = checked;
    const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
    console.error(`… checked (${at()})`);
    console.log(
      `the backup is whole: made ${manifest.created_at} on ${manifest.source.database === 'pglite' ? 'the embedded database' : 'PostgreSQL'}, ` +
        `${manifest.tables.length} tables (${rows} rows), ${manifest.blobs.count} blobs (${manifest.blobs.bytes} bytes)`,
    );
    if (args.includes('--check')) return 0;

    if (!c.DATABASE_URL) {
      await mkdir(c.DATA_DIR, { recursive: true });
      lockDataDir(embeddedLockFile(c.DATA_DIR), 'npm run restore');
    }
    // Migrated as a server's start migrates (as the owner, the runtime role granted what it needs);
    // then loaded as the owner, who alone may turn the tables' triggers off.
    if (c.DATABASE_OWNER_URL) await (await openDatabase(configuredDatabase(c))).close();
    const db = await openDatabase({
      ...configuredDatabase(c),
      url: c.DATABASE_OWNER_URL ?? c.DATABASE_URL,
      ownerUrl: undefined,
      migrate: !c.DATABASE_OWNER_URL,
    });
    setDatabase(db);
    try {
      console.error(`… database open (${at()})`);
      const store = blobStore();
      const id = await bindStore(db.prisma, new DatabaseStore(db.prisma, store, { keepUpTo: c.SMALL_BLOB_MAX_BYTES, cache: false }));
      console.log(
        `into: ${c.DATABASE_URL ? 'PostgreSQL' : `the embedded database in ${c.DATA_DIR}/db`} (id ${id}), blobs in ${c.storageDir}`,
      );
      const report = await restoreBackup({
        file,
        checked,
        db,
        store,
        keepUpTo: c.SMALL_BLOB_MAX_BYTES,
        blobOffsets: async function* () {
          for await (const line of spilledLines(offsetsFile.path)) {
            const [name, offset, size] = JSON.parse(line) as [string, number, number];
            yield { name, offset, size };
          }
        },
        progress: (what) => console.error(`… ${what} (${at()})`),
      });
      const b = report.blobs;
      console.log(
        `restored: ${report.tables} tables, ${report.rows} rows; ${b.inStore + b.skipped + b.inDatabase} blobs ` +
          `(${b.inDatabase} in the database, ${b.inStore} into the store, ${b.skipped} there already), ${b.bytes} bytes`,
      );
      console.log(`took ${at()}; next: npm run verify-events && npm run fsck, then npm start`);
      return 0;
    } finally {
      await db.close();
    }
  } catch (err) {
    if (err instanceof BackupRefused) {
      console.error(`refused: ${err.message}`);
      return 1;
    }
    console.error(`restore failed: ${err instanceof Error ? err.message : err}`);
    return 2;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(2);
  },
);
