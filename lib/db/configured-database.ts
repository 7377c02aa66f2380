// openDatabase's options from the configuration: one place for the server (client.ts, database()) and its scripts.
import path from 'node:path';
import { type Config, config } from '../config';
import type { OpenOptions } from './client';

type DatabaseConfig = Pick<
  Config,
  'DATABASE_URL' | 'DATABASE_OWNER_URL' | 'DATA_DIR' | 'DATABASE_PREPARED_STATEMENTS' | 'DATABASE_WAIT_SECONDS'
>;

/**
 * The database the configuration names, opened as the server opens it: the scripts beside it (fsck,
 * verify-events, the seed) take the same options, so a PgBouncer that needs
 * DATABASE_PREPARED_STATEMENTS=false, or a longer DATABASE_WAIT_SECONDS, holds for them too.
 */
export function configuredDatabase(c: DatabaseConfig = config()): OpenOptions {
  return {
    url: c.DATABASE_URL,
    ownerUrl: c.DATABASE_OWNER_URL,
    dataDir: path.join(c.DATA_DIR, 'db'),
    preparedStatements: c.DATABASE_PREPARED_STATEMENTS,
    waitMs: c.DATABASE_WAIT_SECONDS * 1000,
  };
}

/**
 * As a script beside the server opens it: as the server's own role. With DATABASE_OWNER_URL set it
 * migrates nothing (only the server's start does, as the owner) and refuses a database the server
 * has not migrated yet; with one role it migrates as the server would.
 */
export function scriptDatabase(c: DatabaseConfig = config()): OpenOptions {
  return { ...configuredDatabase(c), ownerUrl: undefined, migrate: !c.DATABASE_OWNER_URL };
}
