// What a statement writes, read from its text, and a driver adapter that tells a read cache of each
// write once it has ended: the embedded database's cache learns of every write this way, and
// PostgreSQL's learns which request wrote (read-cache.ts). Split from the cache itself, which
// needs only `written()` to be called.
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, Transaction } from '@prisma/driver-adapter-utils';
import type { ReadCache, Written } from './read-cache';

const WRITE = /\b(INSERT|UPDATE|DELETE|MERGE|TRUNCATE|COPY|ALTER|DROP|CREATE|GRANT|REVOKE|VACUUM|CLUSTER|REINDEX|LOCK|CALL|DO)\b/gi;
const NAME = String.raw`(?:"[^"]+"|\w+)(?:\s*\.\s*(?:"[^"]+"|\w+))?`;
const INSERT_TARGET = new RegExp(`^\\s+INTO\\s+(${NAME})`, 'i');
const UPDATE_TARGET = new RegExp(`^\\s+(${NAME})`, 'i');
const classified = new Map<string, Written | undefined>();

/**
 * Tables that triggers write when these are written (prisma/migrations): entry_folders and
 * entry_search follow entries, and files their entry's workspace; entry_search follows the names
 * of files, placeholders and the current version of slots (a slot's delete too); folder_counts follows entry_folders; a slot's rev
 * follows its stored versions (slot_history_revision). read-cache.test.ts checks this against the
 * triggers the database has.
 */
export const TRIGGERED: Readonly<Record<string, readonly string[]>> = {
  entries: ['entry_folders', 'entry_search', 'files', 'folder_counts'],
  entry_folders: ['folder_counts'],
  file_slots: ['entry_search'],
  files: ['file_slots', 'entry_search'],
};

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
