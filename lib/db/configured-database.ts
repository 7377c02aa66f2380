// openDatabase's options from the configuration: one place for the server (client.ts, database()) and its scripts.
import path from 'node:path';
import { type Config, config } from '../config';
import type { OpenOptions } from './client';

/**
 * The database the configuration names, opened as the server opens it: the scripts beside it (fsck,
 * verify-events, the seed) take the same options, so a PgBouncer that needs
 * DATABASE_PREPARED_STATEMENTS=false, or a longer DATABASE_WAIT_SECONDS, holds for them too.
 */
export function configuredDatabase(
  c: Pick<Config, 'DATABASE_URL' | 'DATA_DIR' | 'DATABASE_PREPARED_STATEMENTS' | 'DATABASE_WAIT_SECONDS'> = config(),
): OpenOptions {
  return {
    url: c.DATABASE_URL,
    dataDir: path.join(c.DATA_DIR, 'db'),
    preparedStatements: c.DATABASE_PREPARED_STATEMENTS,
    waitMs: c.DATABASE_WAIT_SECONDS * 1000,
  };
}
