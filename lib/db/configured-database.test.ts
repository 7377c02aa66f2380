// The options the server opens its database with, which the scripts beside it (fsck,
// verify-events, the seed) take too: a PgBouncer's DATABASE_PREPARED_STATEMENTS=false and the
// configured DATABASE_WAIT_SECONDS hold for them as for the server; with two roles only the server migrates.
import { describe, expect, it } from 'vitest';
import { configuredDatabase, scriptDatabase } from './configured-database';

const base = { DATA_DIR: '/srv/silo', DATABASE_PREPARED_STATEMENTS: false, DATABASE_WAIT_SECONDS: 7 };

describe('configuredDatabase', () => {
  it('passes the URLs, the data directory, prepared statements and the wait on', () => {
    expect(configuredDatabase({ ...base, DATABASE_URL: 'postgres://db/silo', DATABASE_OWNER_URL: 'postgres://o@db/silo' })).toEqual({
      url: 'postgres://db/silo',
      ownerUrl: 'postgres://o@db/silo',
      dataDir: '/srv/silo/db',
      preparedStatements: false,
      waitMs: 7_000,
    });
    expect(
      configuredDatabase({ DATABASE_URL: undefined, DATA_DIR: 'data', DATABASE_PREPARED_STATEMENTS: true, DATABASE_WAIT_SECONDS: 30 }),
    ).toEqual({ url: undefined, ownerUrl: undefined, dataDir: 'data/db', preparedStatements: true, waitMs: 30_000 });
  });

  it("opens a script as the server's role: with two roles it migrates nothing, with one it migrates as the server does", () => {
    const two = scriptDatabase({ ...base, DATABASE_URL: 'postgres://db/silo', DATABASE_OWNER_URL: 'postgres://o@db/silo' });
    expect(two).toMatchObject({ url: 'postgres://db/silo', ownerUrl: undefined, migrate: false });
    expect(scriptDatabase({ ...base, DATABASE_URL: 'postgres://db/silo' })).toMatchObject({ ownerUrl: undefined, migrate: true });
  });
});
