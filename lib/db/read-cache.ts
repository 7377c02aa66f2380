// A read cache that is never stale.
//
// A cached read names the tables it reads; it is served only while none of them has moved since
// the read began, so a revoked key, a disabled enrollment or a new file is seen by the very next
// request. Tables move by generations, bumped by what each kind of database can tell:
//
// The embedded database (`createReadCache`): only this process writes it. Every statement Prisma
// sends passes through `watchWrites` (the driver adapter, watch-writes.ts): a statement that writes
// bumps the generation of each table it writes, after it is committed.
//
// PostgreSQL (`createChangeLogReadCache`): other instances write too, and no process can know of
// their writes without asking the database. Statement triggers on the tables the cache reads
// (TRACKED_TABLES) note each writing transaction's id in `cache_changes`, and a request's first
// read asks, in one statement sent after it began and shared by every reader waiting, which of those
// tables transactions committed since the previous question wrote: the rows visible now whose xid
// the previous snapshot did not see. Those tables' generations move. Writes to files leave a cached
// key or entry lookup alone; a revocation anywhere is seen by the next request everywhere. The
// request's later reads use that answer (every commit before the request began is in it) until the
// request itself writes: its next read asks again, so it sees its own writes.
import { LRUCache } from 'lru-cache';
import { coalesced } from '../coalesced';

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
  /** what the value was loaded under: the generations of the tables it read */
  seen: V;
  value: Promise<unknown>;
  /** its JSON's length once loaded; 1 while it loads */
  bytes: number;
}

/**
 * Values by key in an LRU cache: a load is kept at size 1 while it runs, set again with its JSON's
 * length once it settles (a value over a sixteenth of the budget is served to its readers but not
 * kept), and forgotten if it fails.
 */
function heldValues<V>(limits: ReadCacheLimits) {
  const held = new LRUCache<string, Held<V>>({ maxSize: limits.bytes, max: limits.entries, sizeCalculation: (h) => h.bytes });
  return {
    /** the entry for `key` if `valid` says it may be served (and then the most recently used) */
    get(key: string, valid: (seen: V) => boolean): Held<V> | undefined {
      const h = held.peek(key);
      return h && valid(h.seen) ? held.get(key) : undefined;
    },
    /** Keeps `load`'s value under `seen` once it settles; a failed load is forgotten. */
    put<T>(key: string, seen: V, load: Promise<T>): Held<V> {
      const entry: Held<V> = { seen, value: load.then(deepFreeze), bytes: 1 };
      held.set(key, entry);
      entry.value.then(
        (value) => {
          if (held.peek(key) !== entry) return;
          const bytes = sizeOf(value);
          if (bytes > limits.bytes / 16) held.delete(key);
          // a new object: lru-cache sizes a key again only when its value changes
          else held.set(key, { ...entry, bytes: Math.max(1, bytes) });
        },
        () => held.peek(key) === entry && held.delete(key),
      );
      return entry;
    },
  };
}

/** Values served while the generations of the tables they read are the ones they were loaded under. */
function generationCache(limits: ReadCacheLimits) {
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
    bump(w: Written) {
      if (w === 'all') all++;
      else for (const t of w) generations.set(t, (generations.get(t) ?? 0) + 1);
    },
  };
}

export function createReadCache(limits: ReadCacheLimits = DEFAULT_LIMITS): ReadCache {
  const cache = generationCache(limits);
  return { read: cache.read, written: cache.bump };
}

/** The tables read through the cache, whose writes PostgreSQL's triggers note (prisma/sql/change-log.sql). */
export const TRACKED_TABLES: ReadonlySet<string> = new Set([
  'api_keys',
  'enrollment_tokens',
  'enrollments',
  'apps',
  'entries',
  'entry_folders',
  'entry_search',
  'file_slots',
  'files',
]);

/** What the database answers a cache's question (client.ts, CHANGES). */
export interface Changes {
  /** the database's snapshot now: the `since` of the next question */
  snapshot: string;
  /** the tables written by transactions committed since `since`; null: not known (no `since`, or its log is pruned) */
  changed: string[] | null;
}

/** How long a request's answer from the change log serves its later reads (createChangeLogReadCache). */
const REQUEST_ANSWER_MS = 1000;

/**
 * A cache for a database other processes write (PostgreSQL). `changes(since)` asks the database
 * which tracked tables were written by transactions committed after snapshot `since`; one
 * question is in flight at a time, and a read waits for one sent after it began.
 *
 * `requestOf()`: the request the caller serves (an object per request), if any. A request answered
 * once is not asked for again until it writes (`written`, called when its write has ended) or the
 * answer is REQUEST_ANSWER_MS old: a question sent after the request began saw every commit it must
 * see, and its own writes are the only later ones it must. Outside a request every read asks.
 */
export function createChangeLogReadCache(
  changes: (since: string | null) => Promise<Changes>,
  limits: ReadCacheLimits = DEFAULT_LIMITS,
  requestOf: () => object | undefined = () => undefined,
): ReadCache {
  const cache = generationCache(limits);
  let since: string | null = null;
  const refresh = coalesced(async () => {
    const answer = await changes(since);
    cache.bump(answer.changed === null ? 'all' : new Set(answer.changed));
    since = answer.snapshot;
  });
  // Per request: the writes it has ended, and how many it had ended when a question answered it
  // (and when). A long request (an upload, an export) asks again once its answer is a second old:
  // it need not see what others commit while it runs, but sees it as soon as it did before.
  const writes = new WeakMap<object, number>();
  const answered = new WeakMap<object, { ended: number; at: number }>();
  return {
    async read<T>(tables: readonly string[], key: string, load: () => Promise<T>): Promise<T> {
      const untracked = tables.find((t) => !TRACKED_TABLES.has(t));
      if (untracked) throw new Error(`The read cache cannot know of writes to ${untracked}: add it to TRACKED_TABLES and its trigger`);
      const request = requestOf();
      if (!request) await refresh();
      else {
        // Counted before the question: a write that ends while it is asked may have committed after
        // it was sent, and makes the request's next read ask again.
        const ended = writes.get(request) ?? 0;
        const last = answered.get(request);
        if (last?.ended !== ended || performance.now() - last.at > REQUEST_ANSWER_MS) {
          const at = performance.now();
          await refresh();
          answered.set(request, { ended, at });
        }
      }
      return cache.read(tables, key, load);
    },
    // Writes are seen in the change log, whoever makes them; the writing request asks again.
    written: () => {
      const request = requestOf();
      if (request) writes.set(request, (writes.get(request) ?? 0) + 1);
    },
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
