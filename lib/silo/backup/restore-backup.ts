// A checked backup (check-backup.ts) loaded into an empty database and its store, whatever the two
// are: the bytes first, each blob larger than the target keeps in its database streamed into the
// store (a restore run again finds them there and skips them); then every table in one transaction,
// as the database owner, with the tables' own triggers off so that every row — derived ones (search
// rows, counts), retention dates, the event log's records and chain heads — is the backup's, not a
// recomputation; foreign keys stay checked. A restore that stops before its commit leaves the
// database as it was (a run again starts over), and the store with bytes nothing refers to yet.
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { Database, Tx } from '../../db/client';
import type { BlobStore } from '../../storage/blob-store';
import type { ZipMember } from '../export/zip-structure';
import type { BackupManifest } from './backup-format';
import { BackupRefused, type CheckedBackup, memberStream, readMember } from './check-backup';
import { appliedMigrations, backedUpTables, quoted } from './plan-backup';

/** Rows sent in one INSERT: at most this many, or this many bytes of JSON. */
const BATCH_ROWS = 2000;
const BATCH_BYTES = 4 * 1024 * 1024;
/** How long the load's transaction may take. */
const LOAD_TIMEOUT_MS = 24 * 60 * 60 * 1000;

export interface RestoreOptions {
  file: string;
  checked: CheckedBackup;
  db: Database;
  /** the store beside the database (a directory or a bucket), not the database's small blobs */
  store: BlobStore;
  /** blobs up to this size go into the database (SMALL_BLOB_MAX_BYTES), larger ones into `store` */
  keepUpTo: number;
  /** where each blob member lies in the file, in blobs.jsonl's order (checkBackup's blobOffsets) */
  blobOffsets: () => AsyncIterable<Pick<ZipMember, 'name' | 'offset' | 'size'>>;
  progress?: (what: string) => void;
}

export interface RestoreReport {
  tables: number;
  rows: number;
  blobs: { inStore: number; skipped: number; inDatabase: number; bytes: number };
}

/** Refuses a target whose schema is not the backup's, or that holds any row of the archive. */
export async function refuseUnlikeTarget(tx: Tx, manifest: BackupManifest): Promise<void> {
  const mine = await appliedMigrations(tx);
  const theirs = manifest.migrations;
  for (let i = 0; i < Math.max(mine.length, theirs.length); i++)
    if (mine[i] !== theirs[i])
      throw new BackupRefused(
        'the target database',
        mine[i] === undefined || (theirs[i] !== undefined && theirs[i] > mine[i])
          ? `the backup needs migration ${theirs[i]}, which this Silo does not have: restore with the version that made the backup (or newer)`
          : `this Silo has migration ${mine[i]}, which the backup was not made with: restore with the version that made the backup, then upgrade`,
      );
  // The same tables as this schema's (a manifest naming any other, a catalog's say, loads nothing).
  const ours = await backedUpTables(tx);
  const listed = manifest.tables.map((t) => t.name);
  const stranger = listed.find((t) => !ours.includes(t)) ?? ours.find((t) => !listed.includes(t));
  if (stranger)
    throw new BackupRefused(
      'manifest.json',
      `its tables are not this schema's: ${stranger} ${listed.includes(stranger) ? 'is not' : 'is missing'}`,
    );
  for (const t of manifest.tables) {
    if (t.name === 'settings') continue;
    const [{ any }] = await tx.$queryRawUnsafe<{ any: boolean }[]>(`SELECT EXISTS (SELECT 1 FROM ${quoted(t.name)}) AS any`);
    if (any) throw new BackupRefused('the target database', `its table ${t.name} holds rows: restore into a new, empty database`);
  }
}

/** The tables in an order where each comes after those its foreign keys point at (a table pointing at itself aside). */
async function loadOrder(tx: Tx, tables: string[]): Promise<string[]> {
  const edges = await tx.$queryRaw<{ child: string; parent: string }[]>`
    SELECT ch.relname AS child, pa.relname AS parent FROM pg_constraint c
    JOIN pg_class ch ON ch.oid = c.conrelid JOIN pg_class pa ON pa.oid = c.confrelid
    JOIN pg_namespace n ON n.oid = ch.relnamespace
    WHERE c.contype = 'f' AND n.nspname = current_schema()`;
  const wanted = new Set(tables);
  const after = new Map<string, Set<string>>(tables.map((t) => [t, new Set()]));
  for (const e of edges) if (e.child !== e.parent && wanted.has(e.child) && wanted.has(e.parent)) after.get(e.child)?.add(e.parent);
  const out: string[] = [];
  const done = new Set<string>();
  while (out.length < tables.length) {
    const next = tables.find((t) => !done.has(t) && [...(after.get(t) ?? [])].every((p) => done.has(p)));
    if (!next) throw new Error(`the tables' foreign keys form a cycle among ${tables.filter((t) => !done.has(t)).join(', ')}`);
    done.add(next);
    out.push(next);
  }
  return out;
}

const selfReferencing = async (tx: Tx, table: string) =>
  (
    await tx.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM pg_constraint WHERE contype = 'f' AND conrelid = ${quoted(table)}::regclass AND confrelid = conrelid`
  )[0].n > 0;

/** The columns an INSERT may write (not generated), in order, quoted. */
async function writableColumns(tx: Tx, table: string): Promise<string> {
  const rows = await tx.$queryRaw<{ name: string }[]>`
    SELECT attname AS name FROM pg_attribute
    WHERE attrelid = ${quoted(table)}::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = ''
    ORDER BY attnum`;
  return rows.map((r) => quoted(r.name)).join(', ');
}

/** A table member's lines in batches (a JSON array's text each). */
async function* batches(file: string, m: ZipMember): AsyncIterable<{ json: string; rows: number }> {
  let lines: string[] = [];
  let bytes = 0;
  const flush = () => {
    const out = { json: `[${lines.join(',')}]`, rows: lines.length };
    lines = [];
    bytes = 0;
    return out;
  };
  // readline decodes across chunks: a chunk may end inside a character
  for await (const line of createInterface({ input: memberStream(file, m), crlfDelay: Number.POSITIVE_INFINITY })) {
    if (!line) continue;
    lines.push(line);
    bytes += line.length;
    if (lines.length >= BATCH_ROWS || bytes >= BATCH_BYTES) yield flush();
  }
  if (lines.length) yield flush();
}

/** Loads one table's rows: straight in, or (a table that points at itself) through a copy, so one statement checks its foreign keys. */
async function loadTable(tx: Tx, file: string, table: string, m: ZipMember): Promise<number> {
  const t = quoted(table);
  const columns = await writableColumns(tx, table);
  let rows = 0;
  if (table === 'settings') {
    for await (const b of batches(file, m)) {
      rows += b.rows;
      await tx.$executeRawUnsafe(
        `INSERT INTO ${t} (${columns}) SELECT ${columns} FROM jsonb_populate_recordset(NULL::${t}, $1::jsonb)
         ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value`,
        b.json,
      );
    }
    return rows;
  }
  const staged = await selfReferencing(tx, table);
  const into = staged ? 'silo_restore_rows' : t;
  if (staged) await tx.$executeRawUnsafe(`CREATE TEMP TABLE silo_restore_rows (LIKE ${t}) ON COMMIT DROP`);
  for await (const b of batches(file, m)) {
    rows += b.rows;
    await tx.$executeRawUnsafe(
      `INSERT INTO ${into} (${columns}) ${staged ? '' : 'OVERRIDING SYSTEM VALUE '}SELECT ${columns} FROM jsonb_populate_recordset(NULL::${t}, $1::jsonb)`,
      b.json,
    );
  }
  if (staged) {
    await tx.$executeRawUnsafe(`INSERT INTO ${t} (${columns}) OVERRIDING SYSTEM VALUE SELECT ${columns} FROM silo_restore_rows`);
    await tx.$executeRawUnsafe('DROP TABLE silo_restore_rows');
  }
  return rows;
}

/** How a trigger is enabled (pg_trigger.tgenabled), as ALTER TABLE says it; 'D' (disabled) stays so. */
const ENABLE: Record<string, string | undefined> = { O: 'ENABLE TRIGGER', A: 'ENABLE ALWAYS TRIGGER', R: 'ENABLE REPLICA TRIGGER' };

/** The tables' own triggers (not those of their foreign keys), with how each is enabled. */
const userTriggers = (tx: Tx, tables: string[]) =>
  tx.$queryRaw<{ tab: string; name: string; mode: string }[]>`
    SELECT c.relname AS tab, g.tgname AS name, g.tgenabled::text AS mode FROM pg_trigger g
    JOIN pg_class c ON c.oid = g.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE NOT g.tgisinternal AND n.nspname = current_schema() AND c.relname = ANY(${tables}::text[])`;

/** Every sequence a restored table's column takes its values from, moved past the restored values. */
async function advanceSequences(tx: Tx, tables: Set<string>) {
  const owned = await tx.$queryRaw<{ seq: string; tab: string; col: string }[]>`
    SELECT s.oid::regclass::text AS seq, t.relname AS tab, a.attname AS col
    FROM pg_class s
    JOIN pg_depend d ON d.objid = s.oid AND d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_class'::regclass
    JOIN pg_class t ON t.oid = d.refobjid
    JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid
    JOIN pg_namespace n ON n.oid = s.relnamespace
    WHERE s.relkind = 'S' AND n.nspname = current_schema()`;
  for (const o of owned) {
    if (!tables.has(o.tab)) continue;
    await tx.$executeRawUnsafe(
      `SELECT setval($1::regclass, m) FROM (SELECT max(${quoted(o.col)}) AS m FROM ${quoted(o.tab)}) x WHERE m IS NOT NULL`,
      o.seq,
    );
  }
}

export async function restoreBackup(o: RestoreOptions): Promise<RestoreReport> {
  const { manifest, members } = o.checked;
  const db = o.db.prisma;
  await refuseUnlikeTarget(db, manifest);
  const report: RestoreReport = { tables: 0, rows: 0, blobs: { inStore: 0, skipped: 0, inDatabase: 0, bytes: 0 } };

  // The bytes larger than the database keeps, into the store.
  let n = 0;
  for await (const m of o.blobOffsets()) {
    const hash = m.name.slice('blobs/'.length);
    if (m.size <= o.keepUpTo) continue;
    if (++n % 1000 === 0) o.progress?.(`${n} blobs placed in the store`);
    report.blobs.bytes += m.size;
    if (await o.store.exists(hash)) {
      report.blobs.skipped++;
      continue;
    }
    const id = `restore-${randomUUID()}`;
    const got = await o.store.receive(id, memberStream(o.file, m), { offset: 0, maxBytes: m.size, expectedHash: hash });
    if (got.hash !== hash || got.size !== m.size) {
      await o.store.dropHeld(id).catch(() => {});
      throw new BackupRefused(m.name, 'its bytes changed since the backup was checked');
    }
    await o.store.commitHeld(id, hash);
    report.blobs.inStore++;
  }

  const names = manifest.tables.map((t) => t.name);
  o.progress?.(`loading ${names.length} tables`);
  await db.$transaction(
    async (tx) => {
      await refuseUnlikeTarget(tx, manifest);
      const triggers = await userTriggers(tx, names);
      for (const g of triggers) await tx.$executeRawUnsafe(`ALTER TABLE ${quoted(g.tab)} DISABLE TRIGGER ${quoted(g.name)}`);
      for (const t of await loadOrder(tx, names)) {
        const m = members.get(`tables/${t}.jsonl`);
        if (!m) throw new BackupRefused(`tables/${t}.jsonl`, 'missing');
        report.rows += await loadTable(tx, o.file, t, m);
        report.tables++;
        o.progress?.(`${t}: ${manifest.tables.find((x) => x.name === t)?.rows ?? 0} rows`);
      }
      // The bytes the database keeps, into their rows of blobs.
      for await (const m of o.blobOffsets()) {
        if (m.size > o.keepUpTo) continue;
        const hash = m.name.slice('blobs/'.length);
        const kept = await tx.$executeRaw`UPDATE blobs SET data = ${await readMember(o.file, m)} WHERE hash = ${hash}`;
        if (kept !== 1) throw new BackupRefused(m.name, 'tables/blobs.jsonl has no row for it');
        report.blobs.inDatabase++;
        report.blobs.bytes += m.size;
      }
      await advanceSequences(tx, new Set(names));
      // Each as it was: a guard that fires in replica mode too (ENABLE ALWAYS) stays so.
      for (const g of triggers)
        if (ENABLE[g.mode]) await tx.$executeRawUnsafe(`ALTER TABLE ${quoted(g.tab)} ${ENABLE[g.mode]} ${quoted(g.name)}`);
    },
    { timeout: LOAD_TIMEOUT_MS, maxWait: 60_000 },
  );
  return report;
}
