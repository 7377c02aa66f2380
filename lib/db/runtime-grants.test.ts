// Two roles on PostgreSQL (DATABASE_OWNER_URL): what the server's role cannot do, that the grants
// are applied on every start (with the database's rules) and cover what a later migration adds,
// and what a start refuses.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './client';
import { throwawayDatabase, testWorld, type TestWorld } from '../testing/database';
import { vacuumWebhookTables } from '../webhooks/engine';
import { applyRuntimeGrants, singleRoleWarning } from './runtime-grants';

const pgOnly = process.env.TEST_DATABASE_URL ? describe : describe.skip;

async function connect(url: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  return c;
}

/** The error a statement fails with, or 'ok'. */
async function attempt(c: pg.Client, sql: string): Promise<string> {
  try {
    await c.query(sql);
    return 'ok';
  } catch (err) {
    return (err as Error).message;
  }
}

/** Every privilege the runtime role holds on the schema's tables and sequences, as text. */
async function privileges(c: pg.Client, role: string): Promise<string[]> {
  const { rows } = await c.query<{ p: string }>(
    `SELECT c.relname || ':' || a.privilege_type AS p FROM pg_class c CROSS JOIN LATERAL aclexplode(c.relacl) a
      WHERE c.relnamespace = current_schema()::regnamespace AND a.grantee = $1::regrole ORDER BY 1`,
    [role],
  );
  return rows.map((r) => r.p);
}

const REFUSED = /permission denied|must be owner/;

pgOnly('the runtime role of two (DATABASE_OWNER_URL)', () => {
  let w: TestWorld;
  let app: pg.Client;
  let owner: pg.Client;
  const ownerId = randomUUID();
  beforeAll(async () => {
    w = await testWorld({ database: 'postgres', twoRoles: true });
    app = await connect(w.url as string);
    owner = await connect(w.ownerUrl as string);
    // a workspace with a record (appended as the server appends: the function runs as its owner) and a checkpoint
    await app.query(`INSERT INTO owners (id, name) VALUES ($1, 'Two roles')`, [ownerId]);
    await app.query(
      `SELECT silo_append_events(ARRAY[$2::uuid], $1, false, ARRAY['entry.updated'], '{"type":"test"}', NULL, NULL, ARRAY[NULL::int], ARRAY['{}'], NULL, ARRAY[NULL::text])`,
      [ownerId, randomUUID()],
    );
    await app.query(
      `INSERT INTO checkpoints (owner_id, sandbox, seq, hash, at, key_id, signature) SELECT owner_id, sandbox, seq, hash, now(), 'k', 's' FROM chain_heads`,
    );
  }, 60_000);
  afterAll(async () => {
    await app?.end();
    await owner?.end();
    await w?.close();
  });

  const FORBIDDEN = [
    'ALTER TABLE files DISABLE TRIGGER compliance_retained',
    'ALTER TABLE events DISABLE TRIGGER ALL',
    'ALTER TABLE entries DISABLE TRIGGER legal_hold_entry',
    'DROP TRIGGER events_append_only ON events',
    'DROP TRIGGER compliance_retained ON files',
    'CREATE OR REPLACE TRIGGER legal_hold_file BEFORE DELETE ON files FOR EACH ROW EXECUTE FUNCTION silo_json_text()',
    'CREATE OR REPLACE FUNCTION silo_legal_hold_file() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN OLD; END $$',
    'DROP TABLE blobs',
    'DROP TABLE events CASCADE',
    'CREATE TABLE mine (x int)',
    'CREATE FUNCTION mine() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$',
    'CREATE VIEW mine AS SELECT 1',
    'ALTER FUNCTION silo_append_events SECURITY INVOKER',
  ];

  it('cannot disable, replace or drop a trigger or its function, drop a table or create anything in the schema', async () => {
    for (const sql of FORBIDDEN) expect([sql, await attempt(app, sql)]).toEqual([sql, expect.stringMatching(REFUSED)]);
  });

  it('cannot truncate any table', async () => {
    const { rows } = await app.query<{ t: string }>(
      `SELECT relname AS t FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relkind IN ('r', 'p') ORDER BY 1`,
    );
    expect(rows.map((r) => r.t)).toEqual(expect.arrayContaining(['blobs', 'entries', 'events', 'files', 'owners']));
    for (const { t } of rows) expect([t, await attempt(app, `TRUNCATE "${t}"`)]).toEqual([t, expect.stringMatching(REFUSED)]);
  });

  it('cannot update or delete records, checkpoints or deleted chains, nor move a chain head', async () => {
    // refused by privilege, before any trigger is asked
    for (const sql of [
      `UPDATE events SET type = 'forged'`,
      'DELETE FROM events',
      `UPDATE checkpoints SET signature = 'forged'`,
      'DELETE FROM checkpoints',
      `UPDATE deleted_chains SET hash = 'x'`,
      'DELETE FROM checkpoint_timestamps',
      'UPDATE chain_heads SET seq = seq - 1',
      'DELETE FROM chain_heads',
      `INSERT INTO chain_heads (owner_id, sandbox, seq, hash) VALUES ('${randomUUID()}', true, 1, 'x')`,
    ])
      expect([sql, await attempt(app, sql)]).toEqual([sql, expect.stringMatching(/permission denied for table/)]);
    const { rows } = await app.query(`SELECT type FROM events WHERE owner_id = $1`, [ownerId]);
    expect(rows).toEqual([{ type: 'entry.updated' }]);
  });

  it("cascades a workspace's deletion into its records and heads, keeping its final head", async () => {
    const gone = randomUUID();
    await app.query(`INSERT INTO owners (id, name) VALUES ($1, 'Gone')`, [gone]);
    await app.query(
      `SELECT silo_append_events(ARRAY[$2::uuid], $1, false, ARRAY['entry.updated'], '{"type":"test"}', NULL, NULL, ARRAY[NULL::int], ARRAY['{}'], NULL, ARRAY[NULL::text])`,
      [gone, randomUUID()],
    );
    await app.query('DELETE FROM owners WHERE id = $1', [gone]);
    const left = await app.query('SELECT 1 FROM events WHERE owner_id = $1 UNION ALL SELECT 1 FROM chain_heads WHERE owner_id = $1', [
      gone,
    ]);
    expect(left.rows).toEqual([]);
    expect((await app.query('SELECT seq::int FROM deleted_chains WHERE owner_id = $1', [gone])).rows).toEqual([{ seq: 1 }]);
  });

  it('grants the same on every start, putting back what was changed by hand', async () => {
    const role = w.roles?.runtime as string;
    const before = await privileges(owner, role);
    expect(before).toEqual(expect.arrayContaining(['entries:DELETE', 'events:INSERT', 'events:SELECT', 'chain_heads:SELECT']));
    expect(before.filter((p) => /TRUNCATE|TRIGGER|REFERENCES|^(events|checkpoints|chain_heads):(UPDATE|DELETE)/.test(p))).toEqual([]);
    await owner.query(
      `GRANT TRUNCATE ON blobs TO ${role}; REVOKE SELECT ON entries FROM ${role}; GRANT CREATE ON SCHEMA public TO ${role}`,
    );
    const again = await openDatabase({ url: w.url, ownerUrl: w.ownerUrl });
    await again.close();
    expect(await privileges(owner, role)).toEqual(before);
    expect(await attempt(app, 'CREATE TABLE mine (x int)')).toMatch(REFUSED);
  });

  it("applies changed rules (prisma/sql) as the owner, in the grants' transaction: nothing the runtime role may then alter", async () => {
    await owner.query(`UPDATE "_sql_rules" SET checksum = 'edited'; ALTER TABLE files DISABLE TRIGGER legal_hold_file`);
    const again = await openDatabase({ url: w.url, ownerUrl: w.ownerUrl });
    await again.close();
    expect((await owner.query(`SELECT file FROM "_sql_rules" WHERE checksum = 'edited'`)).rows).toEqual([]);
    const { rows } = await owner.query(`SELECT tgenabled AS state FROM pg_trigger WHERE tgname = 'legal_hold_file'`);
    expect(rows).toEqual([{ state: 'A' }]);
    const head = await owner.query(`SELECT prosecdef AS definer, proconfig AS config FROM pg_proc WHERE proname = 'silo_append_events'`);
    expect(head.rows).toEqual([{ definer: true, config: ['search_path=public, pg_temp'] }]);
    for (const sql of [...FORBIDDEN, `UPDATE "_sql_rules" SET checksum = 'x'`, `DELETE FROM "_sql_rules"`])
      expect([sql, await attempt(app, sql)]).toEqual([sql, expect.stringMatching(REFUSED)]);
    await app.query(
      `SELECT silo_append_events(ARRAY[$2::uuid], $1, false, ARRAY['entry.updated'], '{"type":"test"}', NULL, NULL, ARRAY[NULL::int], ARRAY['{}'], NULL, ARRAY[NULL::text])`,
      [ownerId, randomUUID()],
    );
  });

  it('lets a script beside the server (it migrates nothing) open only a database holding its rules', async () => {
    await expect(openDatabase({ url: w.url, migrate: false }).then((d) => d.close())).resolves.toBeUndefined();
    await owner.query(`UPDATE "_sql_rules" SET checksum = 'edited' WHERE file = 'usage.sql'`);
    try {
      await expect(openDatabase({ url: w.url, migrate: false })).rejects.toThrow(
        /rules differ from prisma\/sql\/usage.sql: start the server/,
      );
    } finally {
      await openDatabase({ url: w.url, ownerUrl: w.ownerUrl }).then((d) => d.close());
    }
  });

  it("covers what a later migration adds: a table, an append-only table, a new overload of the head's function", async () => {
    const role = w.roles?.runtime as string;
    await owner.query(`
      CREATE TABLE later (id int PRIMARY KEY);
      CREATE TABLE later_log (id int PRIMARY KEY);
      CREATE TRIGGER later_log_append_only BEFORE UPDATE OR DELETE ON later_log FOR EACH ROW EXECUTE FUNCTION silo_refuse_change();
      CREATE FUNCTION silo_append_events(p_note TEXT) RETURNS BIGINT LANGUAGE sql AS $$ SELECT 1::bigint $$;`);
    try {
      await applyRuntimeGrants(owner, role);
      const got = await privileges(owner, role);
      expect(got.filter((p) => p.startsWith('later'))).toEqual([
        'later:DELETE',
        'later:INSERT',
        'later:SELECT',
        'later:UPDATE',
        'later_log:INSERT',
        'later_log:SELECT',
      ]);
      const { rows } = await owner.query<{ sig: string; definer: boolean; config: string[] }>(
        `SELECT oid::regprocedure::text AS sig, prosecdef AS definer, proconfig AS config FROM pg_proc WHERE proname = 'silo_append_events' ORDER BY 1`,
      );
      expect(rows).toHaveLength(2);
      for (const r of rows) expect(r).toMatchObject({ definer: true, config: ['search_path=public, pg_temp'] });
    } finally {
      await owner.query('DROP TABLE later, later_log; DROP FUNCTION silo_append_events(TEXT)');
    }
  });

  it("skips the webhook tables' VACUUM, which only their owner may run (autovacuum off)", async () => {
    expect(await vacuumWebhookTables(w.db.prisma)).toBe(false);
  });

  it('is not warned about as the one role that owns the tables', async () => {
    expect(await singleRoleWarning(w.db.sql)).toBeUndefined();
  });
});

pgOnly('a start with DATABASE_OWNER_URL refuses', () => {
  it('a runtime role that still owns a table (an install from before two roles)', async () => {
    const d = await throwawayDatabase(true);
    try {
      const first = await openDatabase({ url: d.url, ownerUrl: d.ownerUrl });
      await first.close();
      const su = new URL(process.env.TEST_DATABASE_URL as string);
      su.pathname = new URL(d.url).pathname;
      const there = await connect(su.toString());
      await there.query(`ALTER TABLE blobs OWNER TO ${d.roles?.runtime}`);
      await there.end();
      const { runtime, owner } = d.roles as { runtime: string; owner: string };
      await expect(openDatabase({ url: d.url, ownerUrl: d.ownerUrl })).rejects.toThrow(
        new RegExp(`^DATABASE_URL's role ${runtime} still owns blobs.*REASSIGN OWNED BY ${runtime} TO ${owner};`),
      );
    } finally {
      await d.drop();
    }
  });

  it('the same role twice, and a superuser as the runtime role', async () => {
    const d = await throwawayDatabase(true);
    try {
      await expect(openDatabase({ url: d.ownerUrl, ownerUrl: d.ownerUrl })).rejects.toThrow(/name the same role/);
      const su = new URL(process.env.TEST_DATABASE_URL as string);
      su.pathname = new URL(d.url).pathname;
      await expect(openDatabase({ url: su.toString(), ownerUrl: d.ownerUrl })).rejects.toThrow(/is a superuser/);
    } finally {
      await d.drop();
    }
  });
});

pgOnly('one role on PostgreSQL (no DATABASE_OWNER_URL)', () => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await testWorld({ database: 'postgres' });
  });
  afterAll(() => w?.close());

  it('is warned about: it owns the tables, so it can disable the triggers and truncate', async () => {
    expect(await singleRoleWarning(w.db.sql)).toMatch(/can disable or drop the triggers .* truncate any table/);
  });

  it('vacuums the webhook tables it owns', async () => {
    expect(await vacuumWebhookTables(w.db.prisma)).toBe(true);
  });
});
