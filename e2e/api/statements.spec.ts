// What the hot requests cost the database, counted by the server (SILO_COUNT_QUERIES=1: each
// request logs its statements): a new 4 KiB inline file and its replacement are one statement of
// their own (a file's first replacement reads its history too), and on PostgreSQL one question to
// the read cache's change log besides, however many cached reads the request makes
// (lib/db/read-cache.ts). The embedded database asks nothing.
import { randomBytes } from 'node:crypto';
import { bearer, expect, test } from '../fixtures';
import { type SiloServer, startServer } from '../fixtures/server';

let n = 0;

/** The statements the request `send` makes under a request id of its own, from the server's log. */
async function statements(s: SiloServer, send: (id: string) => Promise<Response>): Promise<number> {
  const id = `statements-${process.pid}-${++n}`;
  const res = await send(id);
  expect(res.status).toBeLessThan(300);
  await res.arrayBuffer();
  const line = () =>
    s
      .output()
      .split('\n')
      .find((l) => l.includes(id) && l.includes('"queries"'));
  await expect.poll(line, { timeout: 5_000 }).toBeTruthy();
  return JSON.parse(line() as string).queries as number;
}

test('a new inline file, its replacement and the small reads: their statements', async ({ database }) => {
  test.setTimeout(90_000);
  const s = await startServer({ database, env: { SILO_COUNT_QUERIES: '1' } });
  try {
    const admin = { ...bearer(s.adminKey), 'Content-Type': 'application/json' };
    const owner = await (await fetch(`${s.url}/admin/v1/owners`, { method: 'POST', headers: admin, body: '{"name":"Counted"}' })).json();
    const h = { ...bearer(owner.api_keys[0].key), 'Content-Type': 'application/json' };
    const entry = await (await fetch(`${s.url}/silo/v1/entries`, { method: 'POST', headers: h, body: '{"name":"e"}' })).json();
    const files = `${s.url}/silo/v1/entries/${entry.id}/files`;
    const post = (name: string) => (id: string) =>
      fetch(files, {
        method: 'POST',
        headers: { ...h, 'X-Request-Id': id },
        body: JSON.stringify({ name, mime: 'application/xml', data: randomBytes(4096).toString('base64') }),
      });
    const get = (url: string) => (id: string) => fetch(url, { headers: { ...h, 'X-Request-Id': id } });
    // Each kind once first: a route's first request fills what its module keeps (Next bundles a copy
    // per route), and the key's and entry's lookups are cached from then on.
    await statements(s, post('warm.xml'));
    await statements(s, post('same.xml'));
    const question = database === 'postgres' ? 1 : 0;
    expect(await statements(s, post('new.xml'))).toBe(1 + question);
    // A file's first replacement reads its history (a first version's is not kept: slot-history.ts);
    // each one after it is one statement.
    expect(await statements(s, post('same.xml'))).toBe(2 + question);
    expect(await statements(s, post('same.xml'))).toBe(1 + question);
    const file = await (await post('read.xml')('unmeasured')).json();
    await statements(s, get(`${files}/${file.id}`));
    expect(await statements(s, get(`${files}/${file.id}`))).toBe(question);
    await statements(s, get(`${s.url}/silo/v1/entries?limit=50`));
    expect(await statements(s, get(`${s.url}/silo/v1/entries?limit=50`))).toBe(question);
  } finally {
    await s.stop();
  }
});
