// The one Prisma client of the process: PostgreSQL when DATABASE_URL is set, else an embedded
// PostgreSQL (PGlite) under DATA_DIR/db. Either way the checked-in migrations and the database's
// rules (prisma/sql) are applied first (as DATABASE_OWNER_URL's role when it is set: prepare-schema.ts).
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { processSettings } from '../config';
import { countQuery, countingQueries, currentRequest, log } from '../log';
import { PrismaClient } from './generated/client';
import { readMigrations, type SqlRunner } from './migrate';
import { prepareSchema, type SchemaOptions } from './prepare-schema';
import { readRules } from './sql-rules';
import { checkDeclaredReads, checkingDeclaredReads, declaringReads, tablesOfMigrations } from './declared-reads';
import { startPgliteThread } from './pglite-thread';
import { isStalePlan, statementName } from './prepared';
import { type Changes, createChangeLogReadCache, createReadCache, noReadCache, type ReadCache, TRACKED_TABLES } from './read-cache';
import { configuredDatabase } from './configured-database';
import { retryingRunner, retryTransactions } from './retry';
import { watchWrites, writtenBy } from './watch-writes';

export type Db = PrismaClient;
/** A client or an open transaction: what a query that may run inside a caller's transaction takes. */
export type Tx = Omit<Db, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>;

export interface Database {
  kind: 'pglite' | 'postgres';
  prisma: PrismaClient;
  sql: SqlRunner;
  /** reads that stay exact: by this process's own writes (embedded), or by the change log (read-cache.ts) */
  cache: ReadCache;
  /** statements and transactions waiting for a connection of the pool now (the metrics' silo_db_pool_waiting) */
  waiting(): number;
  close(): Promise<void>;
}

export interface OpenOptions extends SchemaOptions {
  /** postgres://… ; absent means embedded. With ownerUrl, the role the server runs as (runtime-grants.ts) */
  url?: string;
  /** hot statements sent past Prisma are prepared (prepared.ts); true unless false */
  preparedStatements?: boolean;
  /** PGlite directory; absent (with no url) means in memory, for tests */
  dataDir?: string;
  /** in memory: a tarball of a data directory (PGlite's dumpDataDir) to start from, not initdb (the tests' template) */
  loadDataDir?: string;
  /**
   * How long a statement or a transaction waits for a connection of the pool (DATABASE_WAIT_SECONDS)
   * before it fails as busy (db-errors.ts, isDatabaseBusy: 503 `busy`); 30 s unless given.
   */
  waitMs?: number;
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  const [migrations, rules] = await Promise.all([readMigrations(), readRules()]);
  const tables = tablesOfMigrations(migrations.map((m) => m.sql));
  const prepare = opts.preparedStatements !== false;
  const wait = opts.waitMs ?? 30_000;
  const db = opts.url ? await openPostgres(opts.url, tables, prepare, wait) : await openPglite(opts, tables, prepare, wait);
  try {
    await prepareSchema(db, migrations, rules, opts);
  } catch (err) {
    await db.close().catch(() => {});
    throw err;
  }
  return db;
}

/** The connections an instance opens to PostgreSQL (the embedded database has one: pglite-thread.ts). */
export const POSTGRES_CONNECTIONS = 10;

async function openPostgres(url: string, tables: ReadonlySet<string>, prepare: boolean, wait: number): Promise<Database> {
  // A burst of requests waits its turn for one of the connections, at most `wait` (then 503 `busy`).
  const pool = new pg.Pool({ connectionString: url, max: POSTGRES_CONNECTIONS, connectionTimeoutMillis: wait });
  // An idle connection the server ends (a restart, a failover, an administrator) is an event, not
  // a crash: without a listener node-postgres would throw it out of the process. The pool opens a
  // new connection for the next query.
  pool.on('error', (err) => log.warn({ err }, 'an idle PostgreSQL connection was closed'));
  const { cache, stop } = changeLogCache(pool, prepare);
  // Every write is noted too: the request that made it asks the change log again (read-cache.ts).
  const sql = poolRunner(pool, cache, prepare);
  const prisma = newClient(watchWrites(new PrismaPg(pool), cache), cache, tables, sql, wait);
  return {
    kind: 'postgres',
    prisma,
    sql,
    cache,
    waiting: () => pool.waitingCount,
    close: async () => {
      stop();
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

/**
 * Reads checked against the change log (read-cache.ts), one small statement answering every reader
 * that waits, and the log pruned once a minute. Off with SILO_READ_CACHE=off.
 */
function changeLogCache(pool: pg.Pool, prepare: boolean): { cache: ReadCache; stop(): void } {
  if (processSettings.readCacheOff()) return { cache: noReadCache, stop: () => {} };
  let disarmed = false;
  const changes = async (since: string | null): Promise<Changes> => {
    if (countingQueries) countQuery();
    const row = (await runQuery<{ s: string; t: string[] | null; armed: number }>(pool, CHANGES, [since, TRACKED_TABLES.size], prepare))[0];
    // A change-log trigger disabled (or origin-only): writes may go unlogged, so every answer is
    // "everything changed" until an instance's start re-arms them (armChangeLog).
    if (row.armed !== TRACKED_TABLES.size && !disarmed)
      log.error({ armed: row.armed }, 'read cache change-log triggers are disabled: every cached read loads until an instance restarts');
    disarmed = row.armed !== TRACKED_TABLES.size;
    return { snapshot: row.s, changed: row.t };
  };
  const prune = () => pool.query(PRUNE).catch((err) => log.warn({ err }, 'pruning the read cache change log failed'));
  const timer = setInterval(prune, 60_000);
  timer.unref();
  return { cache: createChangeLogReadCache(changes, undefined, currentRequest), stop: () => clearInterval(timer) };
}

// CHANGES is sent prepared unless DATABASE_PREPARED_STATEMENTS=false (prepared.ts): a
// transaction-pooling proxy (PgBouncer before 1.21) may give each statement another connection.
// The tracked tables written by transactions the snapshot $1 did not see and this one does (only
// an xid at or above $1's xmin can be unseen by it); null when $1 is older than the pruned log, or
// when fewer than $2 (every tracked table's) change-log triggers fire always (armed): a write made
// while one was off left no row.
const CHANGES = `
  WITH a AS (SELECT count(*)::int AS n FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid
             WHERE g.tgname = 'cache_change' AND g.tgenabled = 'A' AND c.relnamespace = current_schema()::regnamespace)
  SELECT pg_current_snapshot()::text AS s, a.n AS armed,
    CASE WHEN $1::text IS NULL OR a.n <> $2::int
           OR pg_snapshot_xmin($1::text::pg_snapshot)::text::bigint < (SELECT xid FROM cache_horizon WHERE id = 1) THEN NULL
      ELSE ARRAY(SELECT DISTINCT table_name FROM cache_changes
                 WHERE xid >= pg_snapshot_xmin($1::text::pg_snapshot)::text::bigint
                   AND NOT pg_visible_in_snapshot(xid::text::xid8, $1::text::pg_snapshot)) END AS t
  FROM a`;
// Raises the horizon and drops the rows below it in one statement: a question sees both or neither.
// The horizon trails the oldest running transaction by 10,000 ids, so a cache that asked moments
// ago still finds its rows and need not reload everything.
const PRUNE = `
  WITH h AS (
    UPDATE cache_horizon SET xid = GREATEST(xid, pg_snapshot_xmin(pg_current_snapshot())::text::bigint - 10000) WHERE id = 1 RETURNING xid)
  DELETE FROM cache_changes WHERE xid < (SELECT xid FROM h)`;

async function openPglite(o: OpenOptions, tables: ReadonlySet<string>, prepare: boolean, wait: number): Promise<Database> {
  const { dataDir, loadDataDir } = o;
  if (dataDir) await mkdir(dataDir, { recursive: true });
  // PGlite on its own thread, spoken to as PostgreSQL is (pglite-thread.ts, pglite-worker.mjs).
  const thread = await startPgliteThread(dataDir && path.resolve(dataDir), { waitMs: wait, loadDataDir });
  const { pool } = thread;
  // Only this process opens this directory (data-dir-lock.ts), so every write passes through here.
  // SILO_READ_CACHE=off turns the cache off, to measure what it saves (bench/small-requests.ts).
  const cache = processSettings.readCacheOff() ? noReadCache : createReadCache();
  // Named statements are each connection's own on the thread too (pglite-worker.mjs), as on PostgreSQL.
  const sql = poolRunner(pool, cache, prepare);
  const prisma = newClient(watchWrites(new PrismaPg(pool), cache), cache, tables, sql, wait);
  return {
    kind: 'pglite',
    prisma,
    sql,
    cache,
    waiting: () => pool.waitingCount,
    close: async () => {
      await prisma.$disconnect();
      await thread.close();
    },
  };
}

/** A statement on the pool, prepared under its name when `prepare` (prepared.ts). */
async function runQuery<T extends pg.QueryResultRow>(
  pool: pg.Pool,
  text: string,
  params: unknown[] | undefined,
  prepare: boolean,
): Promise<T[]> {
  const name = prepare ? statementName(text) : undefined;
  if (!name) return (await pool.query<T>(text, params)).rows;
  try {
    return (await pool.query<T>({ name, text, values: params })).rows;
  } catch (err) {
    if (!isStalePlan(err)) throw err;
    return (await pool.query<T>(text, params)).rows;
  }
}

/**
 * The driver's own runner on a pool: migrations, and statements sent past Prisma (direct-query.ts).
 * `cache`: told what each statement wrote, once it has ended.
 * `prepare`: queries are prepared by name (prepared.ts); scripts (exec) never are.
 */
function poolRunner(pool: pg.Pool, cache: ReadCache, prepare = false): SqlRunner {
  return {
    exec: async (text) => {
      try {
        await pool.query(text);
      } finally {
        cache.written('all');
      }
    },
    query: async <T>(text: string, params?: unknown[], o?: { prepare?: boolean }) => {
      const written = writtenBy(text);
      try {
        return (await runQuery(pool, text, params, prepare && o?.prepare !== false)) as T[];
      } finally {
        if (written) cache.written(written);
      }
    },
  };
}

// On globalThis: Next bundles a copy of this module per route, and a map of one copy would know
// only the clients that copy made. Keyed by the client object: a transaction's client is another.
const shared = globalThis as { [key: symbol]: WeakMap<object, ReadCache> | undefined };
const CACHES = Symbol.for('silo.readCaches');
shared[CACHES] ??= new WeakMap<object, ReadCache>();
const readCaches = shared[CACHES];

const RUNNERS = Symbol.for('silo.sqlRunners');
const sharedRunners = globalThis as { [key: symbol]: WeakMap<object, SqlRunner> | undefined };
sharedRunners[RUNNERS] ??= new WeakMap<object, SqlRunner>();
const runners = sharedRunners[RUNNERS];

/**
 * The driver's runner behind a database's own client (autocommit statements, the writes noted for
 * the read cache as Prisma's are); none for a transaction's client, whose statements must stay in it.
 */
export function sqlRunnerOf(db: Db | Tx): SqlRunner | undefined {
  return runners.get(db);
}

/** The read cache of a client; none inside a transaction, whose reads must see its own writes. */
export function readCacheOf(db: Db | Tx): ReadCache {
  return readCaches.get(db) ?? noReadCache;
}

/**
 * `tables`: every table of the schema, for the check of what cached reads read (declared-reads.ts);
 * `sql`: the driver's own runner, for statements sent past Prisma (direct-query.ts); `wait`: how
 * long a transaction may wait for its connection. Prisma's own default is 2 s: a burst of a few
 * dozen writes on the embedded database's one connection answered 500 past it (e2e/api/burst.spec.ts).
 */
function newClient(
  adapter: SqlDriverAdapterFactory,
  cache: ReadCache,
  tables: ReadonlySet<string>,
  sql: SqlRunner,
  wait: number,
): PrismaClient {
  const checking = checkingDeclaredReads();
  const driver = checking ? checkDeclaredReads(adapter, tables) : adapter;
  const transactionOptions = { maxWait: wait };
  const prisma = countingQueries ? countingClient(driver, transactionOptions) : new PrismaClient({ adapter: driver, transactionOptions });
  readCaches.set(prisma, checking ? declaringReads(cache) : cache);
  runners.set(prisma, retryingRunner(countingQueries ? countingRunner(sql) : sql));
  retryTransactions(prisma);
  return prisma;
}

const countingRunner = (sql: SqlRunner): SqlRunner => ({
  exec(text) {
    countQuery();
    return sql.exec(text);
  },
  query(text, params, o) {
    countQuery();
    return sql.query(text, params, o);
  },
});

function countingClient(adapter: SqlDriverAdapterFactory, transactionOptions: { maxWait: number }): PrismaClient {
  // Query events report every statement and a transaction's COMMIT (not its BEGIN).
  const prisma = new PrismaClient({ adapter, transactionOptions, log: [{ emit: 'event', level: 'query' }] });
  prisma.$on('query', countQuery);
  return prisma;
}

// One database per process, kept on globalThis so Next's module reloading never opens a second
// PGlite on the same directory.
const g = globalThis as unknown as { __siloDb?: Promise<Database> };

export function database(): Promise<Database> {
  if (!g.__siloDb) {
    g.__siloDb = openDatabase(configuredDatabase());
    g.__siloDb.catch(() => (g.__siloDb = undefined));
  }
  return g.__siloDb;
}

export async function getDb(): Promise<Db> {
  return (await database()).prisma;
}

/** Tests: use this database for the rest of the process. */
export function setDatabase(db: Database) {
  g.__siloDb = Promise.resolve(db);
}
