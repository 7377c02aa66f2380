// Two database roles (docs/operations.md, Two database roles; lib/db/runtime-grants.ts), as an operator starts
// the server: a start whose DATABASE_URL is the owner itself or a superuser exits 1 with one line;
// with one role the start warns once what that role can do; with two it does not.
import { expect, test } from '../fixtures';
import { createDatabase, startServer, startServerExpectingExit } from '../fixtures/server';

const messages = (output: string) =>
  output.split('\n').map((l) => {
    try {
      return String(JSON.parse(l).msg ?? '');
    } catch {
      return l;
    }
  });

test.describe('two database roles', () => {
  test.skip(({ database }) => database !== 'postgres', 'PostgreSQL only: the embedded database has one role');

  test('a start whose runtime role is the owner, or a superuser, exits 1 with one line', async () => {
    test.setTimeout(240_000);
    const db = await createDatabase({ twoRoles: true });
    try {
      const owner = db.ownerUrl as string;
      const same = await startServerExpectingExit({ database: 'postgres', env: { DATABASE_URL: owner, DATABASE_OWNER_URL: owner } });
      expect(same.code, same.output).toBe(1);
      expect(
        messages(same.output).filter((m) => m.startsWith('Silo cannot start:')),
        same.output,
      ).toEqual([expect.stringMatching(/^Silo cannot start: DATABASE_URL and DATABASE_OWNER_URL name the same role/)]);
      const su = new URL(process.env.TEST_DATABASE_URL as string);
      su.pathname = new URL(db.url).pathname;
      const superuser = await startServerExpectingExit({
        database: 'postgres',
        env: { DATABASE_URL: su.toString(), DATABASE_OWNER_URL: owner },
      });
      expect(superuser.code, superuser.output).toBe(1);
      expect(messages(superuser.output).find((m) => m.startsWith('Silo cannot start:'))).toMatch(/is a superuser/);
    } finally {
      await db.drop();
    }
  });

  test('one role warns once what it can do because it owns the tables; two roles do not', async ({ server }) => {
    test.setTimeout(180_000);
    const WARNING = /runs as the role that owns its tables .* disable or drop the triggers/;
    expect(messages(server.output()).filter((m) => WARNING.test(m))).toEqual([]);
    const db = await createDatabase();
    const s = await startServer({ database: 'postgres', env: { DATABASE_URL: db.url } });
    try {
      expect(messages(s.output()).filter((m) => WARNING.test(m))).toHaveLength(1);
    } finally {
      await s.stop();
      await db.drop();
    }
  });
});
