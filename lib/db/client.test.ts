// The PostgreSQL pool survives the server ending its idle connections (a restart, a failover).
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { loggedSoFar } from '../testing/log-capture';
import { testWorld } from '../testing/database';

describe.skipIf(!process.env.TEST_DATABASE_URL)('PostgreSQL pool', () => {
  it('an idle connection ended by the server neither crashes the process nor fails the next query', async () => {
    const w = await testWorld({ database: 'postgres' });
    try {
      await w.db.prisma.$queryRaw`SELECT 1`;
      const name = (await w.db.prisma.$queryRaw<{ db: string }[]>`SELECT current_database() AS db`)[0].db;
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      const killed = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
      await admin.end();
      expect(killed.rowCount).toBeGreaterThan(0);
      // until the pool has had the end of an idle connection (its warning): the process goes on
      await vi.waitFor(() => expect(loggedSoFar().map((l) => l.msg)).toContain('an idle PostgreSQL connection was closed'));
      expect(await w.db.prisma.$queryRaw<{ one: number }[]>`SELECT 1::int AS one`).toEqual([{ one: 1 }]);
    } finally {
      await w.close();
    }
  });
});
