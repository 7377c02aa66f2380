// Two Silo instances on one PostgreSQL database and one S3 bucket (s3rver), as behind a load
// balancer: nothing that matters may live in one process. B runs under another hostname (a UTS
// namespace of its own), as on another host: it cannot tell whether A's process is alive.
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import http from 'node:http';
import { test as base, expect, type APIRequestContext } from '@playwright/test';
import pg from 'pg';
import { bearer } from '../fixtures';
import { startS3, type LocalS3 } from '../fixtures/s3';
import { createDatabase, setupLinkIn, startServer, type SiloServer } from '../fixtures/server';
import { createEntry, expectError, inlineFile, sha256 } from '../api/helpers';

interface Pair {
  s3: LocalS3;
  a: SiloServer;
  b: SiloServer;
}

const IDLE_SECONDS = 2;

const test = base.extend<{ api: (s: SiloServer) => Promise<APIRequestContext> }, { pair: Pair }>({
  pair: [
    async ({}, use) => {
      const s3 = await startS3();
      // two roles, as docs/operations.md's recipe: the instances run as one, the schema is the other's;
      // empty, as a first deployment's: A's start migrates it
      const db = await createDatabase({ twoRoles: true, empty: true });
      const env = {
        ...s3.env,
        DATABASE_OWNER_URL: db.ownerUrl as string,
        NEXTAUTH_SECRET: randomBytes(32).toString('hex'),
        // One audit key for both, as docs/operations.md asks: checkpoints signed on one verify on the other.
        AUDIT_SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        UPLOAD_IDLE_TIMEOUT_SECONDS: String(IDLE_SECONDS),
        RATE_LIMIT_AUTHORIZE_PER_MINUTE: '10',
      };
      const a = await startServer({ database: 'postgres', databaseUrl: db.url, env });
      // The same admin key on both, as one deployment would have.
      const b = await startServer({
        database: 'postgres',
        databaseUrl: db.url,
        env: { ...env, ADMIN_API_KEY: a.adminKey },
        hostname: 'silo-b.test',
      });
      await use({ s3, a, b });
      await a.stop();
      await b.stop();
      await db.drop();
      await s3.stop();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  api: async ({ playwright }, use) => {
    const made: APIRequestContext[] = [];
    await use(async (s) => {
      const ctx = await playwright.request.newContext({ baseURL: s.url });
      made.push(ctx);
      return ctx;
    });
    for (const c of made) await c.dispose();
  },
});

/** A file url as issued by one instance, sent to another (a load balancer's choice). */
const via = (url: string, s: SiloServer) => url.replace(/^https?:\/\/[^/]+/, s.url);

async function newOwner(api: APIRequestContext, adminKey: string) {
  const res = await api.post('/admin/v1/owners', { headers: bearer(adminKey), data: { name: 'Two' } });
  expect(res.status(), await res.text()).toBe(201);
  const body = await res.json();
  return body.api_keys.find((k: { sandbox: boolean }) => !k.sandbox).key as string;
}

/** A client of each instance, and the live key of a workspace made through A. */
async function clientsAndOwner(pair: Pair, api: (s: SiloServer) => Promise<APIRequestContext>) {
  const A = await api(pair.a);
  const B = await api(pair.b);
  return { A, B, key: await newOwner(A, pair.a.adminKey) };
}

async function placeholder(api: APIRequestContext, key: string, entryId: string, bytes: Buffer) {
  const res = await api.post(`/silo/v1/entries/${entryId}/files`, {
    headers: bearer(key),
    data: { name: 'doc.bin', mime: 'application/octet-stream', sha256: sha256(bytes), size: bytes.length },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: string; url: string };
}

/** Sends `first` bytes of a PUT and then holds the connection open until `release` is called. */
function stalledPut(url: string, total: number, first: Buffer, headers: Record<string, string> = {}) {
  const req = http.request(url, {
    method: 'PUT',
    headers: { 'Content-Length': String(total), 'Content-Type': 'application/octet-stream', ...headers },
  });
  const answered = new Promise<number>((resolve) => {
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
  });
  req.write(first);
  return { answered, abort: () => req.destroy() };
}

async function heldOffset(api: APIRequestContext, url: string, atLeast: number, deadlineMs = 20_000) {
  const deadline = Date.now() + deadlineMs;
  let offset = -1;
  while (Date.now() < deadline) {
    const head = await api.head(url);
    offset = Number(head.headers()['upload-offset'] ?? -1);
    if (head.status() === 204 && offset >= atLeast) return offset;
    await new Promise((r) => setTimeout(r, 200));
  }
  return offset;
}

/** Until an instance holds the upload lease of `fileId` in `s`'s database: it is receiving the bytes. */
async function untilLeased(s: SiloServer, fileId: string) {
  const c = new pg.Client({ connectionString: s.env.DATABASE_URL });
  await c.connect();
  try {
    const held = async () =>
      (await c.query('SELECT count(*)::int AS n FROM upload_leases WHERE file_id = $1 AND expires_at > now()', [fileId])).rows[0].n;
    await expect.poll(held).toBe(1);
  } finally {
    await c.end();
  }
}

/**
 * What a client does to finish an upload: ask HEAD for the offset, send the rest; while the
 * instance that had it still lets go (409 upload_in_progress), try again shortly.
 */
async function resume(api: APIRequestContext, url: string, bytes: Buffer): Promise<number> {
  let status = 0;
  for (let tries = 0; tries < 120 && status !== 200; tries++) {
    const offset = Number((await api.head(url)).headers()['upload-offset'] ?? 0);
    const res = await api.put(url, {
      headers: { 'Content-Range': `bytes ${offset}-${bytes.length - 1}/${bytes.length}` },
      data: bytes.subarray(offset),
    });
    status = res.status();
    if (status !== 200) await new Promise((r) => setTimeout(r, 250));
  }
  return status;
}

test.describe.configure({ mode: 'serial' });

// Before, each start issued a new setup link and replaced the last: the link the first instance
// printed was dead as soon as the second started. Now the first start issues it, the other says it
// is out, the link works through either instance, and its issuer prints the same one again.
test('one setup link for both instances: the other start keeps it valid and prints none; a restart prints it again', async ({ pair }) => {
  test.setTimeout(120_000);
  const said = (s: SiloServer) => setupLinkIn(s.output()) ?? (/printed by another instance/.test(s.output()) ? 'elsewhere' : undefined);
  await expect.poll(() => said(pair.a) && said(pair.b), { timeout: 30_000 }).toBeTruthy();
  const links = [pair.a, pair.b].map((s) => setupLinkIn(s.output()));
  expect(links.filter(Boolean)).toHaveLength(1);
  const issuer = links[0] ? pair.a : pair.b;
  const other = links[0] ? pair.b : pair.a;
  const link = (links[0] ?? links[1]) as string;
  const page = async (s: SiloServer) => (await fetch(via(link, s))).text();
  for (const s of [issuer, other]) expect(await page(s)).toContain('Repeat password');
  await issuer.restart();
  await expect.poll(() => setupLinkIn(issuer.output()), { timeout: 30_000 }).toBe(link);
  expect(await page(other)).toContain('Repeat password');
});

test('a placeholder made through A takes its bytes through B and is fetched through A', async ({ pair, api }) => {
  const { A, B, key } = await clientsAndOwner(pair, api);
  const entry = await createEntry(A, key);
  const bytes = randomBytes(3 * 1024 * 1024 + 17);
  const p = await placeholder(A, key, entry.id, bytes);
  const put = await B.put(via(p.url, pair.b), { headers: { 'Content-Type': 'application/octet-stream' }, data: bytes });
  expect(put.status(), await put.text()).toBe(200);
  const got = await A.get(via(p.url, pair.a));
  expect(got.status()).toBe(200);
  expect(Buffer.compare(await got.body(), bytes)).toBe(0);
  const range = await A.get(`/silo/v1/entries/${entry.id}/files/${p.id}`, { headers: { ...bearer(key), Range: 'bytes=100-199' } });
  expect(range.status()).toBe(206);
  expect(Buffer.compare(await range.body(), bytes.subarray(100, 200))).toBe(0);
});

test('an upload broken off on A resumes on B: HEAD on B reports what A held', async ({ pair, api }) => {
  const { A, B, key } = await clientsAndOwner(pair, api);
  const entry = await createEntry(A, key);
  const bytes = randomBytes(12 * 1024 * 1024 + 5);
  const p = await placeholder(A, key, entry.id, bytes);
  // A chunk that ends before the file does is held on A (204 with the offset)…
  const cut = 7 * 1024 * 1024 + 3;
  const chunk = await A.put(via(p.url, pair.a), {
    headers: { 'Content-Range': `bytes 0-${cut - 1}/${bytes.length}` },
    data: bytes.subarray(0, cut),
  });
  expect(chunk.status(), await chunk.text()).toBe(204);
  // …and then a connection to A breaks off mid-body.
  const more = cut + 2 * 1024 * 1024;
  const partial = await A.put(via(p.url, pair.a), {
    headers: { 'Content-Range': `bytes ${cut}-${more - 1}/${bytes.length}` },
    data: bytes.subarray(cut, more),
  });
  expect(partial.status()).toBe(204);
  const broken = stalledPut(via(p.url, pair.a), bytes.length - more, bytes.subarray(more, more + 1024 * 1024), {
    'Content-Range': `bytes ${more}-${bytes.length - 1}/${bytes.length}`,
  });
  await untilLeased(pair.a, p.id);
  broken.abort();
  await broken.answered;
  const offset = await heldOffset(B, via(p.url, pair.b), more);
  expect(offset).toBeGreaterThanOrEqual(more);
  expect(await resume(B, via(p.url, pair.b), bytes)).toBe(200);
  expect(Buffer.compare(await (await A.get(via(p.url, pair.a))).body(), bytes)).toBe(0);
});

test('20 concurrent replacements of one file over both instances: 1 current, 19 previous, none lost', async ({ pair, api }) => {
  const { A, B, key } = await clientsAndOwner(pair, api);
  const entry = await createEntry(A, key);
  const bodies = Array.from({ length: 20 }, (_, i) => Buffer.from(`version ${i} ${randomUUID()}`));
  const results = await Promise.all(
    bodies.map((b, i) =>
      (i % 2 ? B : A).post(`/silo/v1/entries/${entry.id}/files`, {
        headers: bearer(key),
        data: { name: 'invoice.xml', category: 'format', mime: 'application/xml', data: b.toString('base64') },
      }),
    ),
  );
  for (const r of results) expect(r.status(), await r.text()).toBe(201);
  type Made = { id: string; version: number; previous: { id: string; version: number }[] };
  const made: Made[] = await Promise.all(results.map((r) => r.json()));
  const ids = made.map((m) => m.id);
  const list = await (await A.get(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(key) })).json();
  expect(list.list).toHaveLength(1);
  const current = list.list[0];
  expect(current.previous).toHaveLength(19);
  expect(new Set([current.id, ...current.previous.map((v: { id: string }) => v.id)])).toEqual(new Set(ids));
  // Each answer lists every version before its own, newest first, whichever instance made those
  // (each instance caches the history it has seen: lib/silo/files/slot-history.ts).
  const byVersion = [...made].sort((a, b) => b.version - a.version);
  for (const m of made) expect(m.previous.map((v) => v.id)).toEqual(byVersion.filter((o) => o.version < m.version).map((o) => o.id));
  for (const [i, id] of ids.entries()) {
    const got = await (i % 2 ? A : B).get(`/silo/v1/entries/${entry.id}/files/${id}`, { headers: bearer(key) });
    expect(Buffer.compare(await got.body(), bodies[i])).toBe(0);
  }
});

test('a version edited or deleted through B shows in the next replacement made through A, which had cached the history', async ({
  pair,
  api,
}) => {
  const { A, B, key } = await clientsAndOwner(pair, api);
  const entry = await createEntry(A, key);
  const replace = async (n: number) => {
    const r = await A.post(`/silo/v1/entries/${entry.id}/files`, {
      headers: bearer(key),
      data: { name: 'invoice.xml', category: 'format', data: Buffer.from(`<v n="${n}"/>`).toString('base64') },
    });
    expect(r.status(), await r.text()).toBe(201);
    return (await r.json()) as { id: string; previous: { id: string; desc: string }[] };
  };
  const shown = (f: { previous: { id: string; desc: string }[] }) => f.previous.map((p) => [p.id, p.desc]);
  const v1 = await replace(1);
  const v2 = await replace(2);
  expect(shown(await replace(3))).toEqual([
    [v2.id, ''],
    [v1.id, ''],
  ]);
  expect(
    (await B.patch(`/silo/v1/entries/${entry.id}/files/${v1.id}`, { headers: bearer(key), data: { desc: 'edited on B' } })).status(),
  ).toBe(200);
  const v4 = await replace(4);
  expect(shown(v4).slice(1)).toEqual([
    [v2.id, ''],
    [v1.id, 'edited on B'],
  ]);
  expect((await B.delete(`/silo/v1/entries/${entry.id}/files/${v2.id}`, { headers: bearer(key) })).status()).toBe(204);
  expect(shown(await replace(5)).map(([id]) => id)).toEqual([v4.id, v4.previous[0].id, v1.id]);
});

test('two uploads racing to one placeholder through different instances: one wins, the other 409, bytes never mixed', async ({
  pair,
  api,
}) => {
  const { A, B, key } = await clientsAndOwner(pair, api);
  for (let round = 0; round < 5; round++) {
    const entry = await createEntry(A, key);
    const bytes = randomBytes(2 * 1024 * 1024);
    const p = await placeholder(A, key, entry.id, bytes);
    // The first holds the placeholder mid-body; the second, through B, must be refused.
    const first = stalledPut(via(p.url, pair.a), bytes.length, bytes.subarray(0, 1024 * 1024));
    await untilLeased(pair.a, p.id);
    const second = await B.put(via(p.url, pair.b), { data: randomBytes(bytes.length) });
    await expectError(second, 409, 'upload_in_progress');
    first.abort();
    await first.answered;
    // Once the first is gone (idle timeout frees its lease), the right bytes complete it.
    expect(await resume(B, via(p.url, pair.b), bytes)).toBe(200);
    expect(sha256(await (await A.get(via(p.url, pair.a))).body())).toBe(sha256(bytes));
  }
});

test('what one instance changes, the other sees at once, though it caches its reads', async ({ pair, api }) => {
  const A = await api(pair.a);
  const B = await api(pair.b);
  const owner = await (await A.post('/admin/v1/owners', { headers: bearer(pair.a.adminKey), data: { name: 'Cached' } })).json();
  const key = owner.api_keys.find((k: { sandbox: boolean }) => !k.sandbox);
  const entry = await createEntry(A, key.key);
  const file = await inlineFile(A, key.key, entry.id, {
    name: 'a.xml',
    mime: 'application/xml',
    data: Buffer.from('<a/>').toString('base64'),
  });
  const filePath = `/silo/v1/entries/${entry.id}/files/${file.id}`;
  const listIds = async () =>
    ((await (await B.get('/silo/v1/entries', { headers: bearer(key.key) })).json()).list as { id: string }[]).map((e) => e.id);
  // B reads each a few times, so its cache holds them (read-cache-postgres.test.ts counts the loads).
  for (let i = 0; i < 3; i++) {
    expect((await B.get(filePath, { headers: bearer(key.key) })).status()).toBe(200);
    expect(await listIds()).toEqual([entry.id]);
  }
  // A new entry and a deleted file on A: B's next reads see both.
  const second = await createEntry(A, key.key);
  expect(await listIds()).toEqual([second.id, entry.id]);
  expect((await A.delete(filePath, { headers: bearer(key.key) })).status()).toBe(204);
  await expectError(await B.get(filePath, { headers: bearer(key.key) }), 404, 'not_found');

  // (A disabled enrollment's token is checked the same way: read-cache-postgres.test.ts. Authorizing here
  // would spend the next test's authorize budget: the limit counts per address over both instances.)
  // A key revoked on A: B refuses it at once.
  const admin = { headers: bearer(pair.a.adminKey) };
  expect((await A.delete(`/admin/v1/owners/${owner.id}/keys/${key.id}`, admin)).status()).toBe(204);
  await expectError(await B.get('/silo/v1/entries', { headers: bearer(key.key) }), 401, 'unauthorized');
});

test('the authorize rate limit holds across both instances together', async ({ pair, api }) => {
  const A = await api(pair.a);
  const B = await api(pair.b);
  const app = await (await A.post('/admin/v1/apps', { headers: bearer(pair.a.adminKey), data: { name: 'R', trusted: true } })).json();
  const body = { client_id: app.client_id, client_secret: 'silo_cs_wrong', owner_id: randomUUID() };
  const statuses: number[] = [];
  for (let i = 0; i < 12; i++) statuses.push((await (i % 2 ? B : A).post('/access/v1/enrollment/authorize', { data: body })).status());
  // 10 a minute from one address: 6 went to each instance, so only a shared count refuses.
  expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
  expect(statuses.slice(10)).toContain(429);
});

const MiB = 1024 * 1024;

/**
 * A PUT that sends `first`, then one more byte every 500 ms (so the idle timeout never ends it):
 * an upload in full flow when its instance dies.
 */
function tricklingPut(url: string, bytes: Buffer, from: number, first: number) {
  const req = http.request(url, {
    method: 'PUT',
    headers: {
      'Content-Length': String(bytes.length - from),
      'Content-Type': 'application/octet-stream',
      'Content-Range': `bytes ${from}-${bytes.length - 1}/${bytes.length}`,
    },
  });
  req.on('error', () => {});
  req.write(bytes.subarray(from, from + first));
  let at = from + first;
  const timer = setInterval(() => req.write(bytes.subarray(at, ++at)), 500);
  return () => {
    clearInterval(timer);
    req.destroy();
  };
}

test('SIGKILL of A (another host) mid-upload: B tells the durable offset, takes over within 15 s and resumes there', async ({
  pair,
  api,
}) => {
  // B is on "another host": a UTS namespace of its own, so A's host/pid tells it nothing.
  expect(readlinkSync(`/proc/${pair.b.pid}/ns/uts`)).not.toBe(readlinkSync('/proc/self/ns/uts'));
  const { A, B, key } = await clientsAndOwner(pair, api);
  const entry = await createEntry(A, key);
  const stored = randomBytes(MiB);
  const storedFile = await placeholder(A, key, entry.id, stored);
  expect((await A.put(via(storedFile.url, pair.a), { data: stored })).status()).toBe(200);
  const bytes = randomBytes(24 * MiB);
  const p = await placeholder(A, key, entry.id, bytes);
  const onA = via(p.url, pair.a);
  const onB = via(p.url, pair.b);
  const first = 9 * MiB;
  const res = await A.put(onA, { headers: { 'Content-Range': `bytes 0-${first - 1}/${bytes.length}` }, data: bytes.subarray(0, first) });
  expect(res.status()).toBe(204);
  // A receives 9 MiB more: its second 8 MiB part (up to 16 MiB) becomes durable in S3, the rest is in A's memory.
  const stop = tricklingPut(onA, bytes, first, 9 * MiB);
  const durable = 16 * MiB;
  expect(await heldOffset(B, onB, durable)).toBe(durable);
  // While A holds the upload, B refuses, saying when to try again.
  const busy = await B.put(onB, {
    headers: { 'Content-Range': `bytes ${durable}-${bytes.length - 1}/${bytes.length}` },
    data: bytes.subarray(durable),
  });
  await expectError(busy, 409, 'upload_in_progress');
  expect(Number(busy.headers()['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(Number(busy.headers()['retry-after'])).toBeLessThanOrEqual(15);

  process.kill(-pair.a.pid, 'SIGKILL');
  const killedAt = Date.now();
  stop();
  expect(Buffer.compare(await (await B.get(via(storedFile.url, pair.b))).body(), stored)).toBe(0);
  // B's HEAD tells the durable offset; the client resumes there on B as soon as A's lease lapses,
  // waiting as each 409's Retry-After says.
  const offset = await heldOffset(B, onB, durable);
  expect(offset).toBe(durable);
  let status = 0;
  let sentAt = 0;
  while (Date.now() - killedAt < 30_000) {
    sentAt = Date.now();
    const put = await B.put(onB, {
      headers: { 'Content-Range': `bytes ${offset}-${bytes.length - 1}/${bytes.length}` },
      data: bytes.subarray(offset),
    });
    status = put.status();
    if (status !== 409) break;
    await expectError(put, 409, 'upload_in_progress');
    const wait = Number(put.headers()['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    await new Promise((r) => setTimeout(r, wait * 1000));
  }
  // Only the bytes past the durable offset went to B (the Content-Range above), and that sufficed.
  expect(status).toBe(200);
  // The takeover: the PUT that B accepted was sent within 15 s of A's death.
  expect(sentAt - killedAt).toBeLessThanOrEqual(15_000);
  expect(sha256(await (await B.get(onB)).body())).toBe(sha256(bytes));
});
