// The default blob folder: the embedded database's, or one of each PostgreSQL database's own.
import { expect, it } from 'vitest';
import { config, defaultStorageDir, resetConfig, SMALL_BLOB_CEILING } from './config';

it('keeps $DATA_DIR/blobs for the embedded database and gives each PostgreSQL database its own folder', () => {
  expect(defaultStorageDir({ DATA_DIR: './data' })).toBe('./data/blobs');
  const a = defaultStorageDir({ DATA_DIR: './data', DATABASE_URL: 'postgres://u:p@db.example:5432/silo' });
  expect(a).toMatch(/^\.\/data\/blobs-pg-silo-[0-9a-f]{8}$/);
  // the same database however it is written (password, default port) shares the folder
  expect(defaultStorageDir({ DATA_DIR: './data', DATABASE_URL: 'postgres://other@db.example/silo?sslmode=require' })).toBe(a);
  // another database, or the same name on another server, does not
  expect(defaultStorageDir({ DATA_DIR: './data', DATABASE_URL: 'postgres://u@db.example:5432/silo2' })).not.toBe(a);
  expect(defaultStorageDir({ DATA_DIR: './data', DATABASE_URL: 'postgres://u@db2.example:5432/silo' })).not.toBe(a);
  expect(defaultStorageDir({ DATA_DIR: '/d', DATABASE_URL: 'postgres://u@h/we%20ird%2F..' })).toMatch(
    /^\/d\/blobs-pg-we_ird___-[0-9a-f]{8}$/,
  );
  // libpq's defaults: no database name means the user's
  expect(defaultStorageDir({ DATA_DIR: '/d', DATABASE_URL: 'postgres://alice@h' })).toMatch(/^\/d\/blobs-pg-alice-/);
});

it('keeps SMALL_BLOB_MAX_BYTES at or under the ceiling reads rely on; 0 keeps every blob in the store', () => {
  const before = process.env.SMALL_BLOB_MAX_BYTES;
  try {
    process.env.SMALL_BLOB_MAX_BYTES = String(SMALL_BLOB_CEILING + 1);
    resetConfig();
    expect(() => config()).toThrow(/SMALL_BLOB_MAX_BYTES/);
    for (const ok of [0, SMALL_BLOB_CEILING]) {
      process.env.SMALL_BLOB_MAX_BYTES = String(ok);
      resetConfig();
      expect(config().SMALL_BLOB_MAX_BYTES).toBe(ok);
    }
  } finally {
    if (before === undefined) delete process.env.SMALL_BLOB_MAX_BYTES;
    else process.env.SMALL_BLOB_MAX_BYTES = before;
    resetConfig();
  }
});

it('takes DATABASE_OWNER_URL only with DATABASE_URL: the embedded database has one role', () => {
  const before = { url: process.env.DATABASE_URL, owner: process.env.DATABASE_OWNER_URL };
  try {
    delete process.env.DATABASE_URL;
    process.env.DATABASE_OWNER_URL = 'postgres://owner@db/silo';
    resetConfig();
    expect(() => config()).toThrow(/DATABASE_OWNER_URL: only with DATABASE_URL/);
    process.env.DATABASE_URL = 'postgres://silo@db/silo';
    resetConfig();
    expect(config().DATABASE_OWNER_URL).toBe('postgres://owner@db/silo');
  } finally {
    for (const [k, v] of [
      ['DATABASE_URL', before.url],
      ['DATABASE_OWNER_URL', before.owner],
    ] as const)
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    resetConfig();
  }
});
