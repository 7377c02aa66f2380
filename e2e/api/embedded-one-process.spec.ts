// The embedded database belongs to one process: a second server on the same data directory
// refuses to start with a clear message (several instances need PostgreSQL).
import { expect, test } from '../fixtures';
import { startServer } from '../fixtures/server';

test('a second server on the same embedded data directory refuses to start and names the first', async ({ server, database, request }) => {
  test.skip(database === 'postgres', 'several instances on one PostgreSQL are allowed');
  const err = await startServer({ database: 'pglite', dataDir: server.dataDir }).then(
    (s) => s.stop().then(() => undefined),
    (e: Error) => e,
  );
  expect(err?.message).toMatch(new RegExp(`Silo cannot start: another Silo process \\(pid \\d+\\) is using the embedded database`));
  // The first server is untouched.
  expect((await request.get('/utils/v1/ping')).status()).toBe(200);
});
