// The read cache on PostgreSQL, with a second instance writing the same database: what one
// instance commits, the other's cache sees at once, through the change log its triggers write.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { log, withRequestId } from '../log';
import { authorizeEnrollment } from '../access/authorize-enrollment';
import { principalFromBearer } from '../access/authenticate';
import { createApp } from '../access/create-app';
import { createOwner } from '../access/create-owner';
import { revokeApiKey } from '../access/revoke-api-key';
import { setEnrollmentDisabled } from '../access/set-enrollment-disabled';
import { verifyClient } from '../access/verify-client';
import { testWorld, type TestWorld } from '../testing/database';
import { openDatabase, readCacheOf, sqlRunnerOf } from './client';
import { TRACKED_TABLES } from './read-cache';
import { TEST_ACTOR } from '../testing/actor';

describe.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL, with another instance writing', () => {
  let w: TestWorld;
  beforeAll(async () => (w = await testWorld({ database: 'postgres' })));
  afterAll(() => w.close());

  it('has a change-log trigger on exactly the tables the cache may read, and prunes the log', async () => {
    const rows = await w.db.prisma.$queryRaw<{ table: string }[]>`
      SELECT c.relname AS table FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE t.tgname = 'cache_change' ORDER BY 1`;
    expect(rows.map((r) => r.table)).toEqual([...TRACKED_TABLES].sort());
    await createOwner(w.db.prisma, 'logged', TEST_ACTOR); // an api key: a tracked write
    const logged = await w.db.prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM cache_changes WHERE table_name = 'api_keys'`;
    expect(logged[0].n).toBeGreaterThan(0);
  });

  it('refuses a key another instance revoked, or a token of an enrollment it disabled, at once, though cached', async () => {
    const other = await openDatabase({ url: w.url });
    try {
      const db = w.db.prisma;
      const owner = await createOwner(db, 'cached on pg', TEST_ACTOR);
      const key = owner.api_keys[0];
      await principalFromBearer(db, key.key);
      await principalFromBearer(db, key.key);
      await revokeApiKey({ db: other.prisma, ownerId: owner.id, keyId: key.id, actor: TEST_ACTOR });
      await expect(principalFromBearer(db, key.key)).rejects.toMatchObject({ key: 'unauthorized' });

      // An enrollment disabled by the other instance: its token is refused at once, and works again once enabled.
      const made = await createApp(db, { name: 'cached app', trusted: true });
      const app = await verifyClient({ db, clientId: made.client_id, secret: made.client_secret });
      const { id, token } = await authorizeEnrollment(db, { app, ownerId: owner.id, tokenTtlSeconds: 60 });
      for (let i = 0; i < 2; i++) await principalFromBearer(db, token);
      const admin = { owners: 'all' as const };
      await setEnrollmentDisabled({ db: other.prisma, scope: admin, id, disabled: true, actor: TEST_ACTOR });
      await expect(principalFromBearer(db, token)).rejects.toMatchObject({ key: 'enrollment_disabled' });
      await setEnrollmentDisabled({ db: other.prisma, scope: admin, id, disabled: false, actor: TEST_ACTOR });
      expect((await principalFromBearer(db, token)).kind).toBe('owner');
    } finally {
      await other.close();
    }
  });

  /** A new workspace's entry count, read through the cache; `loads()`: how often it was read from the database. */
  async function cachedCount(name: string) {
    const db = w.db.prisma;
    const owner = await createOwner(db, name, TEST_ACTOR);
    let n = 0;
    const count = () =>
      readCacheOf(db).read(['entries'], `count ${owner.id}`, () => {
        n++;
        return db.entry.count({ where: { ownerId: owner.id } });
      });
    return { owner, count, loads: () => n };
  }

  it('serves a read from the cache while its tables are not written, and sees a commit to them at once', async () => {
    const other = await openDatabase({ url: w.url });
    try {
      const { owner, count, loads } = await cachedCount('counted on pg');
      expect(await count()).toBe(0);
      expect(await count()).toBe(0);
      // Writes of other tables, by the other instance, leave it cached.
      await other.prisma.$executeRaw`UPDATE api_keys SET prefix = prefix WHERE owner_id = ${owner.id}::uuid`;
      expect(await count()).toBe(0);
      expect(loads()).toBe(1);
      // A transaction of the other instance: not seen while open, seen as soon as it commits.
      await other.prisma.$transaction(async (tx) => {
        await tx.entry.create({ data: { id: crypto.randomUUID(), ownerId: owner.id, sandbox: false } });
        expect(await count()).toBe(0);
      });
      expect(await count()).toBe(1);
      await other.prisma
        .$executeRaw`INSERT INTO entries (id, owner_id, sandbox, updated_at) VALUES (${crypto.randomUUID()}::uuid, ${owner.id}::uuid, false, now())`;
      expect(await count()).toBe(2);
    } finally {
      await other.close();
    }
  });

  it("asks once per request, and sees the request's own writes: by Prisma, past it, in a transaction", async () => {
    const other = await openDatabase({ url: w.url });
    try {
      const db = w.db.prisma;
      const { owner, count, loads } = await cachedCount('one question a request');
      const entry = () => ({ id: crypto.randomUUID(), ownerId: owner.id, sandbox: false });
      const sql = sqlRunnerOf(db);
      if (!sql) throw new Error('no runner');
      await withRequestId('first', async () => {
        expect(await count()).toBe(0);
        expect(await count()).toBe(0);
        await db.entry.create({ data: entry() });
        expect(await count()).toBe(1);
        await sql.query('INSERT INTO entries (id, owner_id, sandbox, updated_at) VALUES ($1::uuid, $2::uuid, false, now())', [
          crypto.randomUUID(),
          owner.id,
        ]);
        expect(await count()).toBe(2);
        await db.$transaction(async (tx) => void (await tx.entry.create({ data: entry() })));
        expect(await count()).toBe(3);
        expect(loads()).toBe(4);
      });
      // Another instance's commit: seen by the next request.
      await other.prisma.entry.create({ data: entry() });
      await withRequestId('second', async () => expect(await count()).toBe(4));
    } finally {
      await other.close();
    }
  });

  /** A session of its own (as psql, pg_restore or a replication worker has), running `sql` with `$1` the key's id. */
  async function otherSession(url: string | undefined, sql: string[], keyId: string) {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      for (const q of sql) await c.query(q, q.includes('$1') ? [keyId] : []);
    } finally {
      await c.end();
    }
  }

  const REVOKE = 'UPDATE api_keys SET revoked_at = now() WHERE id = $1';
  const cachedKey = async (name: string) => {
    const owner = await createOwner(w.db.prisma, name, TEST_ACTOR);
    const key = owner.api_keys[0];
    for (let i = 0; i < 2; i++) await principalFromBearer(w.db.prisma, key.key);
    return key;
  };

  it('refuses at once a key revoked with triggers in replica mode (logical replication, pg_restore --disable-triggers)', async () => {
    const key = await cachedKey('replica');
    await otherSession(w.url, ['SET session_replication_role = replica', REVOKE], key.id);
    await expect(principalFromBearer(w.db.prisma, key.key)).rejects.toMatchObject({ key: 'unauthorized' });
  });

  it('keeps the change log on PostgreSQL whatever silo.change_log says (only the embedded database may turn it off)', async () => {
    const key = await cachedKey('change_log off');
    await otherSession(w.url, ["SET silo.change_log = 'off'", REVOKE], key.id);
    await expect(principalFromBearer(w.db.prisma, key.key)).rejects.toMatchObject({ key: 'unauthorized' });
  });

  it('reads afresh once the change-log triggers were disabled (a data-only restore), until an instance re-arms them', async () => {
    const key = await cachedKey('disabled');
    const said = { error: vi.spyOn(log, 'error').mockImplementation(() => {}), warn: vi.spyOn(log, 'warn').mockImplementation(() => {}) };
    // What `pg_restore --data-only --disable-triggers` sends around its data: ENABLE leaves them origin-only.
    await otherSession(w.url, ['ALTER TABLE api_keys DISABLE TRIGGER ALL', REVOKE, 'ALTER TABLE api_keys ENABLE TRIGGER ALL'], key.id);
    await expect(principalFromBearer(w.db.prisma, key.key)).rejects.toMatchObject({ key: 'unauthorized' });
    // A start re-arms them (ENABLE ALWAYS) and marks every table changed: caches opened before see it too.
    const started = await openDatabase({ url: w.url });
    await started.close();
    const armed = await w.db.prisma.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM pg_trigger WHERE tgname = 'cache_change' AND tgenabled = 'A'`;
    expect(armed[0].n).toBe(TRACKED_TABLES.size);
    const again = await cachedKey('re-armed');
    await otherSession(w.url, ['SET session_replication_role = replica', REVOKE], again.id);
    await expect(principalFromBearer(w.db.prisma, again.key)).rejects.toMatchObject({ key: 'unauthorized' });
    // Both told the operator: the cache reading afresh, and the triggers enabled again.
    expect(said.error).toHaveBeenCalled();
    expect(said.warn).toHaveBeenCalled();
    said.error.mockRestore();
    said.warn.mockRestore();
  });
});
