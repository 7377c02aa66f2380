// The options the server opens its database with, which the scripts beside it (fsck,
// verify-events, the seed) take too: a PgBouncer's DATABASE_PREPARED_STATEMENTS=false and the
// configured DATABASE_WAIT_SECONDS hold for them as for the server.
import { describe, expect, it } from 'vitest';
import { configuredDatabase } from './configured-database';

describe('configuredDatabase', () => {
  it('passes the URL, the data directory, prepared statements and the wait on', () => {
    expect(
      configuredDatabase({
        DATABASE_URL: 'postgres://db/silo',
        DATA_DIR: '/srv/silo',
        DATABASE_PREPARED_STATEMENTS: false,
        DATABASE_WAIT_SECONDS: 7,
      }),
    ).toEqual({ url: 'postgres://db/silo', dataDir: '/srv/silo/db', preparedStatements: false, waitMs: 7_000 });
    expect(
      configuredDatabase({ DATABASE_URL: undefined, DATA_DIR: 'data', DATABASE_PREPARED_STATEMENTS: true, DATABASE_WAIT_SECONDS: 30 }),
    ).toEqual({ url: undefined, dataDir: 'data/db', preparedStatements: true, waitMs: 30_000 });
  });
});
