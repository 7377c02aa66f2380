// Clients that trickle, stall or never send their body (issue 9, items 7–9), on a server whose
// UPLOAD_IDLE_TIMEOUT_SECONDS is 3: an upload lasts as long as bytes keep coming; one with no byte
// for the idle timeout ends with 408 upload_idle, keeps what it held and frees its lock at once.
import { randomBytes } from 'node:crypto';
import { test as base, expect } from '@playwright/test';
import { startServer, type SiloServer } from '../fixtures/server';
import { b64, sha256 } from './helpers';
import { errorOf, heldCopies, onServer, openPut, openRequest, sleep, trickle, type Outcome } from './raw-http';

const IDLE_SECONDS = 3;

const test = base.extend<{ api: Api }, { slow: SiloServer; database: 'pglite' | 'postgres' }>({
  database: ['pglite', { option: true, scope: 'worker' }],
  slow: [
    async ({ database }, use) => {
      const s = await startServer({ database, env: { UPLOAD_IDLE_TIMEOUT_SECONDS: String(IDLE_SECONDS) } });
      await use(s);
      await s.stop();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  api: async ({ slow }, use) => use(new Api(slow)),
});

/** A workspace on the slow server, with plain fetch calls. */
class Api {
  key = '';
  constructor(readonly server: SiloServer) {}
  async call(path: string, init: RequestInit & { auth?: boolean } = {}) {
    const headers = new Headers(init.headers);
    if (init.auth !== false && this.key) headers.set('Authorization', `Bearer ${this.key}`);
    if (typeof init.body === 'string') headers.set('Content-Type', 'application/json');
    return fetch(path.startsWith('/') ? this.server.url + path : onServer(path, this.server.url), { ...init, headers });
  }
  async ownerAndEntry() {
    const owner = await (
      await this.call('/admin/v1/owners', {
        method: 'POST',
        body: JSON.stringify({ name: 'Slow' }),
        headers: { Authorization: `Bearer ${this.server.adminKey}` },
        auth: false,
      })
    ).json();
    this.key = owner.api_keys.find((k: { sandbox: boolean }) => !k.sandbox).key;
    return (await (await this.call('/silo/v1/entries', { method: 'POST', body: '{}' })).json()).id as string;
  }
  async placeholder(entryId: string, bytes: Buffer) {
    const res = await this.call(`/silo/v1/entries/${entryId}/files`, {
      method: 'POST',
      body: JSON.stringify({ name: 'slow.bin', mime: 'application/octet-stream', sha256: sha256(bytes), size: bytes.length }),
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    return { id: body.id as string, url: onServer(body.url, this.server.url) };
  }
  async offset(url: string) {
    const head = await this.call(url, { method: 'HEAD', auth: false });
    expect(head.status).toBe(204);
    return Number(head.headers.get('upload-offset'));
  }
}

const expectIdle = (o: Outcome) => {
  expect(o instanceof Error ? o.message : o.status, JSON.stringify(o)).toBe(408);
  expect(errorOf(o).key).toBe('upload_idle');
};

test.describe('slow clients and the idle timeout', () => {
  test('a stalled upload holds its lock only until the idle timeout; then HEAD tells the offset and a resume completes', async ({
    api,
  }) => {
    test.setTimeout(90_000);
    const entryId = await api.ownerAndEntry();
    const bytes = randomBytes(8 * 1024 * 1024);
    const p = await api.placeholder(entryId, bytes);
    const put = openPut(p.url, { 'Content-Length': bytes.length, 'Content-Type': 'application/octet-stream' });
    let sent = 0;
    const piece = 32 * 1024;
    const send = async () => {
      await put.write(bytes.subarray(sent, sent + piece));
      sent += piece;
      await sleep(100);
    };
    // Trickle until the server is receiving (its held copy exists), then, while bytes keep coming,
    // a second upload is told the first one holds the lock.
    while (!(await heldCopies(api.server.storageDir)).includes(p.id)) await send();
    const retry = api.call(p.url, { method: 'PUT', body: bytes, auth: false });
    let settled = false;
    void retry.finally(() => (settled = true));
    while (!settled) await send();
    const busy = await retry;
    expect(sent).toBeLessThan(bytes.length);
    expect(busy.status).toBe(409);
    expect((await busy.json()).key).toBe('upload_in_progress');
    // Now the client stalls mid-body without closing: the server ends the upload on its own.
    expectIdle(await put.outcome);
    expect(await api.offset(p.url)).toBe(sent);
    const rest = await api.call(p.url, {
      method: 'PUT',
      body: bytes.subarray(sent),
      headers: { 'Content-Range': `bytes ${sent}-${bytes.length - 1}/${bytes.length}` },
      auth: false,
    });
    expect(rest.status, await rest.clone().text()).toBe(200);
    expect((await rest.json()).stored).toBe(true);
    expect(Buffer.compare(Buffer.from(await (await api.call(p.url, { auth: false })).arrayBuffer()), bytes)).toBe(0);
    put.req.destroy();
  });

  test('a PUT that sends its headers and never its body ends after the idle timeout and holds nothing', async ({ api }) => {
    test.setTimeout(60_000);
    const entryId = await api.ownerAndEntry();
    const bytes = randomBytes(5000);
    const p = await api.placeholder(entryId, bytes);
    const put = openPut(p.url, { 'Content-Length': bytes.length });
    put.req.flushHeaders();
    expectIdle(await put.outcome);
    expect(await api.offset(p.url)).toBe(0);
    expect((await api.call(p.url, { method: 'PUT', body: bytes, auth: false })).status).toBe(200);
    put.req.destroy();
  });

  test('an upload that trickles for longer than the idle timeout is not cut', async ({ api }) => {
    test.setTimeout(60_000);
    const entryId = await api.ownerAndEntry();
    const bytes = randomBytes(200 * 1024);
    const p = await api.placeholder(entryId, bytes);
    // ~3 × the idle timeout in all, never more than a fraction of it between two pieces
    const done = await trickle(p.url, bytes, { pieces: 18, pauseMs: (IDLE_SECONDS * 1000) / 6 });
    expect(done instanceof Error ? done.message : done.status, JSON.stringify(done)).toBe(200);
  });

  test('a stalled PUT to a stored file writes nothing to the store and ends after the idle timeout', async ({ api }) => {
    test.setTimeout(60_000);
    const entryId = await api.ownerAndEntry();
    const bytes = randomBytes(256 * 1024);
    const created = await api.call(`/silo/v1/entries/${entryId}/files`, {
      method: 'POST',
      body: JSON.stringify({ name: 'stored.bin', data: b64(bytes) }),
    });
    expect(created.status).toBe(201);
    const url = onServer((await created.json()).url, api.server.url);
    const before = await heldCopies(api.server.storageDir);
    const put = openPut(url, { 'Content-Length': bytes.length });
    await put.write(bytes.subarray(0, bytes.length / 2));
    // no held copy at any moment while it stalls, until the server ends it
    while (!put.settled()) {
      expect(await heldCopies(api.server.storageDir)).toEqual(before);
      await sleep(50);
    }
    expectIdle(await put.outcome);
    expect(await heldCopies(api.server.storageDir)).toEqual(before);
    put.req.destroy();
  });

  test('a JSON request whose body stops coming is closed by the server, not held for ever', async ({ api }) => {
    test.setTimeout(120_000);
    await api.ownerAndEntry();
    const post = openRequest('POST', `${api.server.url}/silo/v1/entries`, {
      'Content-Type': 'application/json',
      'Content-Length': 100,
      Authorization: `Bearer ${api.key}`,
    });
    await post.write(Buffer.from('{"name":'));
    // No answer is possible (the body is incomplete): the connection is closed, and nothing failed inside.
    const outcome = await post.outcome;
    expect(outcome instanceof Error, JSON.stringify(outcome)).toBe(true);
    expect(api.server.output()).not.toMatch(/"level":"error"/);
    expect((await api.call('/utils/v1/ping')).status).toBe(200);
  });
});
