// A cached read names the tables it depends on (read-cache.ts): it is served until one of them is
// written. That is exact only if its query reads nothing else, so with SILO_CHECK_CACHE_READS=1
// (the unit tests and every test server) each statement a cached read's load sends is parsed for
// the tables it reads, and a table it did not declare fails the statement, naming both.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, Transaction } from '@prisma/driver-adapter-utils';
import { processSettings } from '../config';
import type { ReadCache } from './read-cache';

// On globalThis: Next bundles this module once per route, and the adapter and the cached reads
// may come from different copies.
const g = globalThis as unknown as { __siloDeclaredReads?: AsyncLocalStorage<readonly string[]> };
g.__siloDeclaredReads ??= new AsyncLocalStorage<readonly string[]>();
const declared = g.__siloDeclaredReads;

export const checkingDeclaredReads = (): boolean => processSettings.checkCacheReads();

export class UndeclaredRead extends Error {
  override readonly name = 'UndeclaredRead';
}

/** The read cache, with each load run where its statements can tell which tables it declared. */
export function declaringReads(cache: ReadCache): ReadCache {
  return {
    // Awaited inside run(): a Prisma query is lazy, sent when it is first awaited.
    read: (tables, key, load) => cache.read(tables, key, () => declared.run(tables, async () => await load())),
    written: (w) => cache.written(w),
  };
}

const NAME = String.raw`(?:"[^"]+"|[A-Za-z_]\w*)(?:\s*\.\s*(?:"[^"]+"|[A-Za-z_]\w*))?`;
const SOURCE = new RegExp(String.raw`\b(?:FROM|JOIN)\s+(?:ONLY\s+)?(${NAME})\s*(\()?`, 'gi');
const CTE = /(?:\bWITH(?:\s+RECURSIVE)?|,)\s+("[^"]+"|[A-Za-z_]\w*)\s+AS\s+(?:NOT\s+)?(?:MATERIALIZED\s+)?\(/gi;

/**
 * The tables of `known` a statement reads: every name after FROM or JOIN that is a table (not a
 * function call, a subquery or a name the statement's own WITH defines). Only names in `known`
 * count, so `extract(epoch FROM x)` names no table.
 */
export function tablesRead(sql: string, known: ReadonlySet<string>): Set<string> {
  const text = sql.replace(/'(?:[^']|'')*'/g, "''");
  const ctes = new Set([...text.matchAll(CTE)].map((m) => unquote(m[1])));
  const out = new Set<string>();
  for (const m of text.matchAll(SOURCE)) {
    if (m[2]) continue; // a function call: unnest(…), jsonb_each(…)
    const parts = m[1].split('.');
    const table = unquote(parts[parts.length - 1].trim());
    if (known.has(table) && !ctes.has(table)) out.add(table);
  }
  return out;
}

const unquote = (s: string) => s.replace(/^"|"$/g, '');

/** The tables `CREATE TABLE` makes in the migrations: what a statement can read. */
export const tablesOfMigrations = (sqls: string[]): Set<string> =>
  new Set(sqls.flatMap((sql) => [...sql.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?"?([a-z_]\w*)"?/gi)].map((m) => m[1])));

function check(q: SqlQuery, known: ReadonlySet<string>) {
  const tables = declared.getStore();
  if (!tables) return;
  const undeclared = [...tablesRead(q.sql, known)].filter((t) => !tables.includes(t));
  if (undeclared.length) {
    throw new UndeclaredRead(`a cached read declared [${tables.join(', ')}] but reads ${undeclared.join(', ')}: ${q.sql.slice(0, 300)}`);
  }
}

/** Wraps a driver adapter so that a statement of a cached read's load reads only what it declared. */
export function checkDeclaredReads(factory: SqlDriverAdapterFactory, known: ReadonlySet<string>): SqlDriverAdapterFactory {
  const wrapped = Object.create(factory) as SqlDriverAdapterFactory;
  wrapped.connect = async () => checkAdapter(await factory.connect(), known);
  return wrapped;
}

function checked<R>(target: object, method: (q: SqlQuery) => Promise<R>, known: ReadonlySet<string>) {
  return (q: SqlQuery): Promise<R> => {
    check(q, known);
    return method.call(target, q);
  };
}

function checkAdapter(adapter: SqlDriverAdapter, known: ReadonlySet<string>): SqlDriverAdapter {
  const wrapped = Object.create(adapter) as SqlDriverAdapter;
  wrapped.queryRaw = checked(adapter, adapter.queryRaw, known);
  wrapped.executeRaw = checked(adapter, adapter.executeRaw, known);
  wrapped.startTransaction = async (isolation) => {
    const tx = await adapter.startTransaction(isolation);
    const t = Object.create(tx) as Transaction;
    t.queryRaw = checked(tx, tx.queryRaw, known);
    t.executeRaw = checked(tx, tx.executeRaw, known);
    return t;
  };
  return wrapped;
}
