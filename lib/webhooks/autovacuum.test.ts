// Where PostgreSQL's autovacuum does not look after the webhook tables, the engine vacuums them
// itself (autovacuum.ts; the start-up decides): the server's setting, and a table's own opting out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testWorld, type TestWorld } from '../testing/database';
import { autovacuumCoversWebhooks, WEBHOOK_TABLES } from './autovacuum';

describe.skipIf(!process.env.TEST_DATABASE_URL)('autovacuum over the webhook tables (postgres)', () => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await testWorld({ database: 'postgres' });
  });
  afterAll(() => w?.close());

  it("follows the server's autovacuum, and any webhook table's opting out of it", async () => {
    const db = w.db.prisma;
    const [server] = await db.$queryRaw<{ on: boolean }[]>`
      SELECT current_setting('autovacuum') = 'on' AND current_setting('track_counts') = 'on' AS on`;
    expect(await autovacuumCoversWebhooks(db)).toBe(server.on);
    // PostgreSQL keeps the option as written: off, false, 0, no
    for (const [table, off] of WEBHOOK_TABLES.flatMap((t) => ['off', 'false', '0', 'no'].map((v) => [t, v]))) {
      await db.$executeRawUnsafe(`ALTER TABLE ${table} SET (autovacuum_enabled = ${off})`);
      expect(await autovacuumCoversWebhooks(db)).toBe(false);
      await db.$executeRawUnsafe(`ALTER TABLE ${table} SET (autovacuum_enabled = on)`);
      expect(await autovacuumCoversWebhooks(db)).toBe(server.on);
      await db.$executeRawUnsafe(`ALTER TABLE ${table} RESET (autovacuum_enabled)`);
    }
  });
});
