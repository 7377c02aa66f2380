// A blob store belongs to one database: a server started on another database's store exits 1 with
// one clear line; readiness fails when the store is not this database's; an embedded database is
// used by one process at a time (a second server and fsck refuse while it runs).
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '../fixtures';
import { startServerExpectingExit } from '../fixtures/server';
import { expectError } from './helpers';
import { fsck } from './store-faults-helpers';

test.describe('a blob store belongs to one database', () => {
  test("a server started on another database's blob store exits 1 with one clear line", async ({ server, database, request }) => {
    test.setTimeout(180_000);
    const run = await startServerExpectingExit({ database, env: { STORAGE_DIR: server.storageDir } });
    expect(run.code, run.output).toBe(1);
    // Logs are JSON lines (pino); the reason is one line's message.
    const line = run.output
      .split('\n')
      .map((l) => {
        try {
          return String(JSON.parse(l).msg ?? '');
        } catch {
          return l;
        }
      })
      .find((l) => l.startsWith('Silo cannot start:'));
    expect(line, run.output).toContain(`the blob store at ${server.storageDir} belongs to database`);
    expect(line).toContain('Set STORAGE_DIR');
    expect(run.output).not.toMatch(/^\s+at /m);
    expect(run.output).not.toContain('Silo is ready');
    // the store's own server is unharmed
    expect((await request.get('/utils/v1/ready')).status()).toBe(200);
  });

  test("readiness answers 503 not_ready while the store is another database's", async ({ server, request }) => {
    const marker = path.join(server.storageDir, 'silo-store.json');
    const mine = await readFile(marker, 'utf8');
    expect(JSON.parse(mine).database_id).toMatch(/^[0-9a-f-]{36}$/);
    try {
      await writeFile(marker, JSON.stringify({ database_id: '00000000-0000-4000-8000-000000000000' }));
      const body = await expectError(await request.get('/utils/v1/ready'), 503, 'not_ready');
      expect(body.message).toContain('belongs to another database');
      expect(body.message).not.toContain(server.storageDir);
    } finally {
      await writeFile(marker, mine);
    }
    expect(await (await request.get('/utils/v1/ready')).json()).toEqual({ ready: true, checks: { database: 'ok', storage: 'ok' } });
  });

  test('an embedded database in use: a second server and fsck refuse, and say why', async ({ server, database }) => {
    test.skip(database !== 'pglite', 'PostgreSQL serves many processes');
    test.setTimeout(180_000);
    const second = await startServerExpectingExit({ database, env: { DATA_DIR: server.dataDir } });
    expect(second.code, second.output).toBe(1);
    expect(second.output).toMatch(/Silo cannot start: the embedded database is in use by a Silo server \(pid \d+/);
    const check = await fsck(server);
    expect(check.code, check.out).toBe(2);
    expect(check.out).toMatch(/fsck cannot run: the embedded database is in use by a Silo server/);
  });

  test('fsck runs beside a server on PostgreSQL and finds the store clean', async ({ server, database, request, newOwner }) => {
    test.skip(database !== 'postgres', 'an embedded database is checked with its server stopped (faults.spec.ts)');
    const { liveKey } = await newOwner();
    const entry = await (await request.post('/silo/v1/entries', { headers: { Authorization: `Bearer ${liveKey}` }, data: {} })).json();
    await request.post(`/silo/v1/entries/${entry.id}/files`, {
      headers: { Authorization: `Bearer ${liveKey}` },
      data: { name: 'a.txt', data: 'YQ==' },
    });
    const check = await fsck(server);
    expect(check.code, check.out).toBe(0);
    expect(check.out).toMatch(/referenced: [1-9]\d* blobs/);
  });
});
