// Recognising database outcomes without leaking them: unique violations, JSON equality.
import { ApiError } from '../errors';

/**
 * The unique constraints the code recovers from, by the exact names of prisma/migrations, with
 * their table's columns for a driver that reports columns only. A match is exact: `entries_pkey`
 * contains "key" but is not the entry key's constraint (matching by substring once answered a
 * repeated PUT with 409).
 */
export const UNIQUE = {
  entryId: { name: 'entries_pkey', model: 'Entry', columns: ['id'] },
  entryKey: { name: 'entries_owner_id_sandbox_key_key', model: 'Entry', columns: ['owner_id', 'sandbox', 'key'] },
  fileId: { name: 'files_pkey', model: 'File', columns: ['id'] },
  enrollment: { name: 'enrollments_app_id_owner_id_sandbox_key', model: 'Enrollment', columns: ['app_id', 'owner_id', 'sandbox'] },
  userEmail: { name: 'users_email_key', model: 'User', columns: ['email'] },
} as const;
export type UniqueConstraint = (typeof UNIQUE)[keyof typeof UNIQUE];

interface AdapterCause {
  kind?: string;
  constraint?: { index?: string; fields?: string[] };
  originalMessage?: string;
}

/** Prisma's P2002 on exactly `constraint`. */
export function isUniqueViolation(err: unknown, constraint: UniqueConstraint): boolean {
  const e = err as { code?: string; meta?: { modelName?: string; target?: unknown; driverAdapterError?: { cause?: AdapterCause } } };
  if (e?.code !== 'P2002') return false;
  const cause = e.meta?.driverAdapterError?.cause;
  const name = violatedConstraint(cause) ?? (typeof e.meta?.target === 'string' ? e.meta.target : undefined);
  if (name !== undefined) return name === constraint.name;
  // No name reported: the same columns of the same table are the same constraint.
  const columns = cause?.constraint?.fields ?? (Array.isArray(e.meta?.target) ? (e.meta.target as string[]) : undefined);
  return (
    e.meta?.modelName === constraint.model &&
    !!columns &&
    columns.length === constraint.columns.length &&
    columns.every((c, i) => c === constraint.columns[i])
  );
}

/**
 * A row names a parent that is gone (a racing delete): Prisma's P2003, a raw statement's 23503
 * through Prisma (P2010), or the driver's own 23503 (a statement sent past Prisma: direct-query.ts).
 */
export function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: string; meta?: { driverAdapterError?: { cause?: AdapterCause & { originalCode?: string } } } };
  if (e?.code === 'P2003' || e?.code === '23503') return true;
  const cause = e?.meta?.driverAdapterError?.cause;
  return e?.code === 'P2010' && (cause?.kind === 'ForeignKeyConstraintViolation' || cause?.originalCode === '23503');
}

/** The foreign keys of rows that name their entry, by the exact names of prisma/migrations. */
export const ENTRY_FOREIGN_KEYS: ReadonlySet<string> = new Set([
  'file_slots_entry_id_fkey',
  'files_entry_id_fkey',
  'entry_folders_entry_id_fkey',
  'entry_search_entry_id_fkey',
]);

/**
 * A write named an entry a racing delete had removed: a foreign-key violation on one of
 * ENTRY_FOREIGN_KEYS (the driver's `constraint`, Prisma's adapter cause, or PostgreSQL's message
 * naming it). The statement failed whole: nothing of it is stored. 404 `not_found` to the caller.
 */
export function isEntryGone(err: unknown): boolean {
  if (!isForeignKeyViolation(err)) return false;
  const e = err as {
    constraint?: string;
    message?: unknown;
    meta?: { field_name?: unknown; driverAdapterError?: { cause?: AdapterCause } };
  };
  const cause = e.meta?.driverAdapterError?.cause;
  const named =
    e.constraint ??
    cause?.constraint?.index ??
    (typeof e.meta?.field_name === 'string' ? e.meta.field_name : undefined) ??
    /foreign key constraint "([^"]+)"/.exec(cause?.originalMessage ?? (typeof e.message === 'string' ? e.message : ''))?.[1];
  return named !== undefined && ENTRY_FOREIGN_KEYS.has(named);
}

/** PostgreSQL's deadlock_detected and serialization_failure: the transaction was aborted whole and may run again. */
export const RETRYABLE_STATES = ['40P01', '40001'] as const;
export type RetryableState = (typeof RETRYABLE_STATES)[number];

/**
 * The SQLSTATE of an error PostgreSQL or PGlite aborted a transaction with for a deadlock or a
 * serialization failure, however it arrives: the driver's own (`code`), through Prisma's adapter
 * (`originalCode`), or Prisma's P2034 that maps both; undefined for any other error.
 */
export function retryableState(err: unknown): RetryableState | undefined {
  for (let e = err as Record<string, unknown> | undefined, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const meta = e.meta as { driverAdapterError?: { cause?: { originalCode?: unknown } } } | undefined;
    for (const code of [e.code, e.originalCode, meta?.driverAdapterError?.cause?.originalCode])
      if (code === '40P01' || code === '40001') return code;
    // P2034 without its cause names neither: a conflict all the same
    if (e.code === 'P2034') return '40001';
    e = e.cause as Record<string, unknown> | undefined;
  }
  return undefined;
}

/** The row a write names is gone (a racing delete committed first): Prisma's P2025. */
export function isRecordGone(err: unknown): boolean {
  return (err as { code?: string })?.code === 'P2025';
}

/**
 * A retention trigger refused the statement (prisma/sql/retention.sql, SQLSTATE
 * 42501): `legal_hold` or `retained` (compliance), as the API's own refusal names it. The API
 * refuses first; this answers a race past its guard with the same 409 instead of a 500.
 */
export function retentionRefusal(err: unknown): 'legal_hold' | 'retained' | undefined {
  const e = err as { meta?: { driverAdapterError?: { cause?: AdapterCause & { originalCode?: string } } }; message?: unknown };
  const cause = e?.meta?.driverAdapterError?.cause;
  const text =
    cause?.originalCode === '42501'
      ? (cause.originalMessage ?? '')
      : typeof e?.message === 'string' && / 42501\b|`42501`/.test(e.message)
        ? e.message
        : '';
  if (/ under a legal hold: /.test(text)) return 'legal_hold';
  if (/ under compliance retention until /.test(text)) return 'retained';
  return undefined;
}

/**
 * The name PostgreSQL gave the violated constraint: the pg driver passes it on; PGlite's adapter
 * passes only the columns, but PostgreSQL's message names it (`… unique constraint "name"`).
 */
function violatedConstraint(cause: AdapterCause | undefined): string | undefined {
  if (cause?.constraint?.index) return cause.constraint.index;
  return /unique constraint "([^"]+)"/.exec(cause?.originalMessage ?? '')?.[1];
}

/** Deep equality of JSON values with object keys in any order. */
export function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

/**
 * A delete's transaction failed: when a retention trigger refused it (a race past guardDelete, which
 * the slot and entry locks should leave none of), the same 409 the guard gives, else the error as it
 * is. Nothing is recorded: the refusal's transaction is the one that failed.
 */
export function refusedByDatabase(err: unknown): never {
  const key = retentionRefusal(err);
  if (key === 'legal_hold')
    throw new ApiError('legal_hold', 'The entry is under a legal hold: nothing in it may be deleted until the hold is lifted');
  if (key === 'retained') throw new ApiError('retained', 'A version is under compliance retention: no one may override it');
  throw err;
}

/**
 * The database had no connection free for the request within DATABASE_WAIT_SECONDS: Prisma's
 * P2028 "Unable to start a transaction in the given time", or the pool's own timeout for a
 * statement outside a transaction (pg-pool: "timeout exceeded when trying to connect"). Load, not a
 * bug: 503 `busy` with Retry-After (to-api-error.ts); nothing of the request's transaction ran.
 */
export function isDatabaseBusy(err: unknown): boolean {
  for (
    let e = err as { code?: string; message?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 4;
    e = e.cause as typeof e, depth++
  ) {
    const message = typeof e.message === 'string' ? e.message : '';
    if (e.code === 'P2028' && message.includes('Unable to start a transaction in the given time')) return true;
    if (message.includes('timeout exceeded when trying to connect')) return true;
  }
  return false;
}

/** Node's errors for a connection that could not be made or was lost. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);
/**
 * PostgreSQL's: a connection exception (class 08), or the server shutting down or starting
 * (57P01–57P03); Prisma's: P1001 "Can't reach database server", P1002 reached but timed out, P1017
 * "Server has closed the connection".
 */
const UNREACHABLE_STATES = /^(08[0-9A-Z]{3}|57P0[123]|P1001|P1002|P1017)$/;
/** node-postgres's own words for a connection that ended under a query or could not start. */
const UNREACHABLE_MESSAGES =
  /Connection terminated|connection (is )?closed|Client has encountered a connection error|the database system is (starting up|shutting down)/i;

/**
 * PostgreSQL could not be reached, or went away under the request (stopped, restarted, a network
 * cut): the server's problem, not a bug and not load: 503 `database_unavailable` with Retry-After
 * (to-api-error.ts), at once rather than after DATABASE_WAIT_SECONDS. The transaction that met it
 * rolled back with its connection, unless the connection was lost during the COMMIT itself, whose
 * outcome no client can know (docs/api.md: retry a write idempotently).
 */
export function isDatabaseUnreachable(err: unknown): boolean {
  const seen = new Set<unknown>();
  const look = (e: unknown, depth: number): boolean => {
    if (!e || typeof e !== 'object' || depth > 5 || seen.has(e)) return false;
    seen.add(e);
    const x = e as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown; originalCode?: unknown; syscall?: unknown };
    // a socket's own error (connect, read, write, getaddrinfo): not a client's aborted request,
    // which carries ECONNRESET without one
    if (typeof x.code === 'string' && typeof x.syscall === 'string' && UNREACHABLE_CODES.has(x.code)) return true;
    for (const code of [x.code, x.originalCode]) if (typeof code === 'string' && UNREACHABLE_STATES.test(code)) return true;
    if (typeof x.message === 'string' && UNREACHABLE_MESSAGES.test(x.message)) return true;
    // Node's connect tries each address of a name: AggregateError of one refusal per address
    if (Array.isArray(x.errors) && x.errors.some((i) => look(i, depth + 1))) return true;
    return look(x.cause, depth + 1);
  };
  return look(err, 0);
}

/** The log level of a background job's failure: a busy database is load, warned of; anything else an error. */
export const failureLevel = (err: unknown): 'warn' | 'error' => (isDatabaseBusy(err) ? 'warn' : 'error');
