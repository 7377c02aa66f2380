// A backup's plan: the whole instance as one moment had it. Every table is read in one REPEATABLE
// READ, READ ONLY transaction (one snapshot: no half a version, no record without its change), a
// cursor's page at a time, each row as PostgreSQL's own JSON of it, into the plan's files
// (spill.ts): memory holds a page whatever the size. The bytes of every stored version are listed
// in the same snapshot and streamed from the store afterwards; the caller holds a backup lease
// (backup-lease.ts) from before the snapshot until the last byte, so none of them is freed meanwhile.
// On the embedded database the transaction holds its one connection: other requests wait while
// the tables are read (not while the bytes stream).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import type { Db, Tx } from '../../db/client';
import { databaseId } from '../../db/database-id';
import { planDir } from '../export/export-dirs';
import { type ExportMember, listedMembers } from '../export/plan-export';
import { type Spilled, SpillFile } from '../export/spill';
import type { BlobStore } from '../../storage/blob-store';
import {
  BACKUP_FORMAT,
  BLOB_LIST,
  type BackupManifest,
  type BackupTable,
  LEFT_OUT,
  LOCAL_SETTINGS,
  MANIFEST,
  tableMember,
} from './backup-format';

/** Rows fetched from a table's cursor at a time. */
const PAGE = 1000;
/** How long the snapshot's transaction may take to read every table. */
const SNAPSHOT_TIMEOUT_MS = 6 * 60 * 60 * 1000;

export interface BackupPlan {
  manifest: BackupManifest;
  /** the ZIP's members in order; the same each time it is called */
  members(): AsyncIterable<ExportMember>;
  dispose(): Promise<void>;
}

/** An SQL identifier, quoted. */
export const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** What a table's rows are read as: its whole row, but blobs without their bytes, settings without the database's own. */
export function rowsQuery(table: string): string {
  const t = quoted(table);
  if (table === 'blobs')
    return `SELECT (to_jsonb(t) - 'data')::text AS j FROM ${t} t WHERE EXISTS (SELECT 1 FROM files f WHERE f.hash = t.hash AND f.stored)`;
  if (table === 'settings')
    return `SELECT to_jsonb(t)::text AS j FROM ${t} t WHERE name <> ALL (ARRAY[${LOCAL_SETTINGS.map((s) => `'${s}'`).join(',')}])`;
  return `SELECT to_jsonb(t)::text AS j FROM ${t} t`;
}

/** The tables of the schema a backup holds, by name. */
export async function backedUpTables(tx: Tx): Promise<string[]> {
  const rows = await tx.$queryRaw<{ name: string }[]>`
    SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
    ORDER BY c.relname`;
  return rows.map((r) => r.name).filter((n) => !LEFT_OUT.has(n));
}

/** The migrations applied, by name. */
export async function appliedMigrations(tx: Tx): Promise<string[]> {
  const rows = await tx.$queryRaw<{ name: string }[]>`
    SELECT migration_name AS name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`;
  return rows.map((r) => r.name);
}

/** Runs `query` through a cursor, giving each page of its `j` column to `page`. */
async function eachPage(tx: Tx, query: string, page: (lines: string[]) => Promise<void>) {
  await tx.$executeRawUnsafe(`DECLARE silo_backup NO SCROLL CURSOR FOR ${query}`);
  try {
    for (;;) {
      const rows = await tx.$queryRawUnsafe<{ j: string }[]>(`FETCH FORWARD ${PAGE} FROM silo_backup`);
      if (!rows.length) return;
      await page(rows.map((r) => r.j));
    }
  } finally {
    await tx.$executeRawUnsafe('CLOSE silo_backup');
  }
}

export async function planBackup(o: { db: Db; store: BlobStore; kind: 'pglite' | 'postgres'; now?: Date }): Promise<BackupPlan> {
  const createdAt = o.now ?? new Date();
  const id = await databaseId(o.db);
  const { dir, dispose } = await planDir();
  const open: SpillFile[] = [];
  const spill = async (name: string) => {
    const f = await SpillFile.create(path.join(dir, name));
    open.push(f);
    return f;
  };
  const close = async (f: SpillFile) => {
    const s = await f.close();
    open.splice(open.indexOf(f), 1);
    return s;
  };
  try {
    const read = await o.db.$transaction(
      async (tx) => {
        await tx.$executeRawUnsafe('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
        const migrations = await appliedMigrations(tx);
        const tables: (BackupTable & { file: Spilled })[] = [];
        for (const [i, name] of (await backedUpTables(tx)).entries()) {
          const f = await spill(`table-${i}.jsonl`);
          let rows = 0;
          await eachPage(tx, rowsQuery(name), async (lines) => {
            rows += lines.length;
            await f.write(`${lines.join('\n')}\n`);
          });
          const file = await close(f);
          tables.push({ name, rows, member: tableMember(name), size: file.size, sha256: file.sha256, file });
        }
        // The bytes of every stored version, once each: as the export lists its versions (listedMembers).
        const list = await spill('blobs.jsonl');
        let count = 0;
        let bytes = 0;
        await eachPage(
          tx,
          `SELECT json_build_array('blobs/' || hash, size, hash, (extract(epoch FROM created_at) * 1000)::bigint)::text AS j
           FROM blobs t WHERE EXISTS (SELECT 1 FROM files f WHERE f.hash = t.hash AND f.stored) ORDER BY hash`,
          async (lines) => {
            for (const l of lines) bytes += (JSON.parse(l) as [string, number])[1];
            count += lines.length;
            await list.write(`${lines.join('\n')}\n`);
          },
        );
        return { migrations, tables, blobs: { file: await close(list), count, bytes } };
      },
      { timeout: SNAPSHOT_TIMEOUT_MS, maxWait: 60_000 },
    );
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      created_at: createdAt.toISOString(),
      source: { database: o.kind, database_id: id },
      migrations: read.migrations,
      tables: read.tables.map(({ file: _, ...t }) => t),
      blobs: {
        member: BLOB_LIST,
        count: read.blobs.count,
        bytes: read.blobs.bytes,
        size: read.blobs.file.size,
        sha256: read.blobs.file.sha256,
      },
    };
    const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 1)}\n`);
    const fromFile = (name: string, f: Spilled): ExportMember => ({
      name,
      size: f.size,
      sha256: f.sha256,
      mtime: createdAt,
      open: async () => createReadStream(f.path),
    });
    const first: ExportMember[] = [
      {
        name: MANIFEST,
        bytes: manifestBytes,
        size: manifestBytes.length,
        sha256: createHash('sha256').update(manifestBytes).digest('hex'),
        mtime: createdAt,
      },
      ...read.tables.map((t) => fromFile(t.member, t.file)),
      fromFile(BLOB_LIST, read.blobs.file),
    ];
    return {
      manifest,
      async *members() {
        yield* first;
        yield* listedMembers(read.blobs.file.path, o.store);
      },
      dispose,
    };
  } catch (err) {
    await Promise.all(open.map((f) => f.discard()));
    await dispose();
    throw err;
  }
}
