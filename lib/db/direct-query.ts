// A hot statement sent straight to the driver, past Prisma's client: the same SQL, connection and
// autocommit, the read cache told of its writes as for any other (client.ts), without the client's
// own work on each statement — measured on the embedded database as much as the event log's record
// costs a new file (measured: 576 against 156 µs of CPU for `SELECT $1::text`). Inside a transaction it goes through the
// transaction's client, as it must. Rows come back as pg decodes them (both databases are reached
// through pg: pglite-thread.ts), so a statement sent this way selects only columns pg and Prisma
// decode alike: text (cast uuids and bigints ::text), int4, boolean, json/jsonb and timestamptz (a
// Date); direct-query.test.ts holds them to it.
import type { Tx } from './client';
import { sqlRunnerOf } from './client';
import type { Prisma } from './generated/client';

/**
 * Runs `statement` and answers its rows: on the driver when `db` is a database's own client.
 * `o.prepare: false` for a statement whose plan depends on its values: planned for them on every run,
 * never kept as a generic plan (prepared.ts).
 */
export async function queryDirect<T>(db: Tx, statement: Prisma.Sql, o?: { prepare?: boolean }): Promise<T[]> {
  const runner = sqlRunnerOf(db);
  if (!runner) return db.$queryRaw<T[]>(statement);
  return runner.query<T>(statement.text, statement.values, o);
}
