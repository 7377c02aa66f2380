// A read cache that is never stale.
//
// The embedded database (`createReadCache`): only this process writes it. Every statement Prisma
// sends passes through `watchWrites` (the driver adapter): a statement that writes bumps the
// generation of each table it writes, after it is committed. A cached read names the tables it
// reads; it is served only while none of them has moved since the read began, so a revoked key, a
// disabled enrollment or a new file is seen by the very next request.
//
// PostgreSQL (`createSnapshotReadCache`): other instances write too, and no process can know of
// their writes without asking the database. It asks the cheapest question that settles it:
// `pg_current_snapshot()`, sent after the read began. Equal snapshots see the same committed data
// (every commit either raises the snapshot's xmax or takes an xid out of its in-progress list, and
// neither goes back), so a value loaded under a snapshot is served while the database's snapshot
// is still that one. Any commit anywhere on the server moves it: the cache pays off while nothing
// is written, which is when reads come in bulk; under writes it loads, as if it were off.
import { coalesced } from '../coalesced';
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, Transaction } from '@prisma/driver-adapter-utils';

/** What a statement writes: a set of tables, or (a delete, a script, anything unrecognized) all of them. */
export type Written = ReadonlySet<string> | 'all';

export interface ReadCache {
  /**
   * `load()`'s value for `key`, from the cache while no table in `tables` has been written since it
   * was loaded. Values are frozen: a caller must copy before changing one.
   */
  read<T>(tables: readonly string[], key: string, load: () => Promise<T>): Promise<T>;
  /** Marks tables as written (every cached read of them reloads). */
  written(w: Written): void;
}

/** No cache: every read loads (PostgreSQL, where other instances write). */
export const noReadCache: ReadCache = {
  read: (_tables, _key, load) => load(),
  written: () => {},
};

export interface ReadCacheLimits {
  /** values kept at most */
  entries: number;
  /** their JSON's total length at most: a page of entries with full meta is megabytes */
  bytes: number;
}

const DEFAULT_LIMITS: ReadCacheLimits = { entries: 10_000, bytes: 64 * 1024 * 1024 };

interface Held<V> {
  /** what the value was loaded under: table generations, or a database snapshot */
  seen: V;
  value: Promise<unknown>;
  /** the value's size once loaded (its JSON's length), counted against the byte budget */
  bytes: number;
}

/** Values by key, the least recently used dropped first, within the limits. */
function heldValues<V>(limits: ReadCacheLimits) {
  const held = new Map<string, Held<V>>();
  let bytes = 0;
  const drop = (key: string, entry?: Held<V>) => {
    const h = held.get(key);
    if (!h || (entry && h !== entry)) return;
    held.delete(key);
    bytes -= h.bytes;
  };
  // the oldest first: Map keeps insertion order, and a hit moves its entry to the end
  const evict = () => {
    while (held.size > limits.entries || bytes > limits.bytes) drop(held.keys().next().value as string);
  };
  return {
    drop,
    /** the entry for `key` if `valid` says it may be served (and then the most recently used) */
    get(key: string, valid: (seen: V) => boolean): Held<V> | undefined {
      const h = held.get(key);
      if (!h || !valid(h.seen)) return undefined;
      held.delete(key);
      held.set(key, h);
      return h;
    },
    /** Keeps `load`'s value under `seen` once it settles; a failed load is forgotten. */
    put<T>(key: string, seen: V, load: Promise<T>): Held<V> {
      const entry: Held<V> = { seen, value: load.then(deepFreeze), bytes: 0 };
      drop(key);
      held.set(key, entry);
      entry.value.then(
        (value) => {
          if (held.get(key) !== entry) return;
          entry.bytes = sizeOf(value);
          bytes += entry.bytes;
          // A value over a sixteenth of the budget is served to its readers but not kept.
          if (entry.bytes > limits.bytes / 16) drop(key);
          evict();
        },
        () => drop(key, entry),
      );
      evict();
      return entry;
    },
  };
}

export function createReadCache(limits: ReadCacheLimits = DEFAULT_LIMITS): ReadCache {
  const generations = new Map<string, number>();
  let all = 0; // bumped by writes to every table
  const held = heldValues<{ tables: readonly string[]; generations: number[] }>(limits);
  const generation = (table: string) => (generations.get(table) ?? 0) + all;

  return {
    read<T>(tables: readonly string[], key: string, load: () => Promise<T>): Promise<T> {
      const current = (seen: { tables: readonly string[]; generations: number[] }) =>
        seen.tables.length === tables.length && seen.tables.every((t, i) => generation(t) === seen.generations[i]);
      const h = held.get(key, current);
      if (h) return h.value as Promise<T>;
      // The generations are read before the load starts: a write committed while it runs leaves
      // this entry behind the tables, and it is never served.
      const seen = { tables, generations: tables.map(generation) };
      return held.put(key, seen, load()).value as Promise<T>;
    },
    written(w: Written) {
      if (w === 'all') all++;
      else for (const t of w) generations.set(t, (generations.get(t) ?? 0) + 1);
    },
  };
}

/**
 * A cache for a database other processes write (PostgreSQL): `snapshot()` must return the text of
 * `pg_current_snapshot()` from a query sent after it was called. A value is served while the
 * snapshot is the one it was loaded under; a load is kept only if the snapshot after it is the one
 * before it, so the load's own statements saw exactly that snapshot's data.
 */
export function createSnapshotReadCache(snapshot: () => Promise<string>, limits: ReadCacheLimits = DEFAULT_LIMITS): ReadCache {
  const held = heldValues<string>(limits);
  const fresh = coalesced(snapshot);
  let last = ''; // the snapshot the previous read saw
  return {
    async read<T>(_tables: readonly string[], key: string, load: () => Promise<T>): Promise<T> {
      const now = await fresh();
      const moved = now !== last;
      last = now;
      const h = held.get(key, (seen) => seen === now);
      if (h) return h.value as Promise<T>;
      // Something committed since the last read: while writes go on, a value would hardly be
      // served again before the next commit, and keeping it costs a second snapshot. Load only.
      if (moved) return load().then(deepFreeze);
      // Readers that come with the same snapshot meanwhile share this load: it began after their
      // snapshot was taken, so it sees at least what that snapshot saw.
      const entry = held.put(key, now, load());
      const value = (await entry.value) as T;
      // Not kept unless the snapshot is still the one it was loaded under (a failed ask is a no).
      const after = await fresh().catch(() => undefined);
      if (after !== now) held.drop(key, entry);
      return value;
    },
    // Writes are seen by the snapshot, whoever makes them.
    written: () => {},
  };
}

/** The length of a value's JSON (bigints as their digits): what keeping it costs, near enough. */
function sizeOf(value: unknown): number {
  return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))?.length ?? 0;
}

function deepFreeze<T>(value: T): T {
  // Typed arrays (bytea) cannot be frozen; no cached read returns one, and none would be changed.
  if (value && typeof value === 'object' && !ArrayBuffer.isView(value) && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

const WRITE = /\b(INSERT|UPDATE|DELETE|MERGE|TRUNCATE|COPY|ALTER|DROP|CREATE|GRANT|REVOKE|VACUUM|CLUSTER|REINDEX|LOCK|CALL|DO)\b/gi;
const NAME = String.raw`(?:"[^"]+"|\w+)(?:\s*\.\s*(?:"[^"]+"|\w+))?`;
const INSERT_TARGET = new RegExp(`^\\s+INTO\\s+(${NAME})`, 'i');
const UPDATE_TARGET = new RegExp(`^\\s+(${NAME})`, 'i');
const classified = new Map<string, Written | undefined>();

/**
 * Tables that triggers write when these are written (prisma/migrations): entry_folders follows
 * entries. read-cache.test.ts checks this against the triggers the database has.
 */
export const TRIGGERED: Readonly<Record<string, readonly string[]>> = { entries: ['entry_folders'] };

/**
 * The tables a statement writes, or undefined when it writes none. Errs towards writing: a
 * DELETE (whose cascades reach other tables) or any statement it cannot read counts as writing
 * everything; a read that is mistaken for a write only costs a reload.
 */
export function writtenBy(sql: string): Written | undefined {
  if (classified.has(sql)) return classified.get(sql);
  const result = classify(sql);
  if (classified.size > 5_000) classified.clear();
  classified.set(sql, result);
  return result;
}

function classify(sql: string): Written | undefined {
  const text = sql
    .replace(/'(?:[^']|'')*'/g, "''") // string literals name no table
    .replace(/\bFOR\s+(?:NO\s+KEY\s+)?(?:UPDATE|SHARE)\b/gi, '') // row locks write nothing
    .replace(/\bON\s+CONFLICT\b[^;]*?\bDO\s+(?:UPDATE|NOTHING)\b/gi, ''); // the INSERT names the table
  const tables = new Set<string>();
  for (const m of text.matchAll(WRITE)) {
    const word = m[1].toUpperCase();
    const after = text.slice(m.index + m[0].length);
    const target = word === 'INSERT' ? INSERT_TARGET.exec(after) : word === 'UPDATE' ? UPDATE_TARGET.exec(after) : null;
    if (!target) return 'all';
    const parts = target[1].split('.');
    const table = parts[parts.length - 1].trim().replace(/^"|"$/g, '');
    tables.add(table);
    for (const t of TRIGGERED[table] ?? []) tables.add(t);
  }
  return tables.size ? tables : undefined;
}

/** Wraps a driver adapter so every committed write reaches `cache.written`. */
export function watchWrites(factory: SqlDriverAdapterFactory, cache: ReadCache): SqlDriverAdapterFactory {
  const wrapped = Object.create(factory) as SqlDriverAdapterFactory;
  wrapped.connect = async () => watchAdapter(await factory.connect(), cache);
  return wrapped;
}

function watchAdapter(adapter: SqlDriverAdapter, cache: ReadCache): SqlDriverAdapter {
  const wrapped = Object.create(adapter) as SqlDriverAdapter;
  const run =
    <R>(method: (q: SqlQuery) => Promise<R>) =>
    async (q: SqlQuery): Promise<R> => {
      const w = writtenBy(q.sql);
      try {
        return await method.call(adapter, q);
      } finally {
        if (w) cache.written(w);
      }
    };
  wrapped.queryRaw = run(adapter.queryRaw);
  wrapped.executeRaw = run(adapter.executeRaw);
  wrapped.executeScript = async (script) => {
    try {
      await adapter.executeScript(script);
    } finally {
      cache.written('all');
    }
  };
  wrapped.startTransaction = async (isolation) => watchTransaction(await adapter.startTransaction(isolation), cache);
  return wrapped;
}

/** Inside a transaction writes are noted, and reported once it has ended (committed or not). */
function watchTransaction(tx: Transaction, cache: ReadCache): Transaction {
  const wrapped = Object.create(tx) as Transaction;
  const pending: Written[] = [];
  const note =
    <R>(method: (q: SqlQuery) => Promise<R>) =>
    (q: SqlQuery): Promise<R> => {
      const w = writtenBy(q.sql);
      if (w) pending.push(w);
      return method.call(tx, q);
    };
  const end = (method: () => Promise<void>) => async () => {
    try {
      await method.call(tx);
    } finally {
      for (const w of pending.splice(0)) cache.written(w);
    }
  };
  wrapped.queryRaw = note(tx.queryRaw);
  wrapped.executeRaw = note(tx.executeRaw);
  wrapped.commit = end(tx.commit);
  wrapped.rollback = end(tx.rollback);
  return wrapped;
}
