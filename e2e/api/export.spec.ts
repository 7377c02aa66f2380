// The auditor's export over HTTP (docs/api.md, Export): a workspace key and a console member get
// the ZIP of their chain with its Content-Length, which verify-export (the script, as an auditor
// runs it) accepts against the published audit key and refuses after one byte is changed; the
// export is recorded; bad periods and callers get the contract's error body; a reader that hangs
// up leaves the server serving.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { bearer, expect, test } from '../fixtures';
import { startServer } from '../fixtures/server';
import { b64, createEntry, enrollmentToken, expectError, inlineFile, sha256, signIn } from './helpers';

const today = new Date().toISOString().slice(0, 10);
const ROOT = path.resolve(__dirname, '../..');
const verifyExport = (...args: string[]) =>
  spawnSync('npx', ['tsx', path.join(ROOT, 'scripts/verify-export.ts'), ...args], { cwd: ROOT, encoding: 'utf8' });

/**
 * Today's export asked over a raw socket, so a test can read it at its own pace, stop, or hang up;
 * `close` asks the server to end the connection after the answer.
 */
function exportSocket(serverUrl: string, key: string, close = false): net.Socket {
  const url = new URL(serverUrl);
  const s = net.connect(Number(url.port), url.hostname, () =>
    s.write(
      `GET /silo/v1/export?from=${today}&to=${today} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${key}\r\n${close ? 'Connection: close\r\n' : ''}\r\n`,
    ),
  );
  return s;
}

let dir: string;
test.beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'silo-export-e2e-'));
});
test.afterAll(() => rm(dir, { recursive: true, force: true }));

test('a workspace key gets its chain as a ZIP that verify-export accepts, and that names a changed byte', async ({ request, newOwner }) => {
  const owner = await newOwner('Audited GmbH');
  const entry = await createEntry(request, owner.liveKey, { key: 'INV-7', name: 'Invoice 7' });
  const xml = Buffer.from('<Invoice>7</Invoice>');
  const v1 = await inlineFile(request, owner.liveKey, entry.id, { name: 'inv.xml', category: 'format', key: 'xml', data: b64(xml) });
  const big = Buffer.alloc(600 * 1024, 7);
  const v2 = await inlineFile(request, owner.liveKey, entry.id, { name: 'scan.pdf', mime: 'application/pdf', data: b64(big) });
  // the sandbox's files are another chain's
  const other = await createEntry(request, owner.sandboxKey, { name: 'sandbox only' });
  await inlineFile(request, owner.sandboxKey, other.id, { name: 'sandbox.xml', data: b64('<x/>') });

  const res = await request.get(`/silo/v1/export?from=${today}&to=${today}`, { headers: bearer(owner.liveKey) });
  expect(res.status(), await res.text()).toBe(200);
  expect(res.headers()['content-type']).toBe('application/zip');
  const body = await res.body();
  expect(Number(res.headers()['content-length'])).toBe(body.length);
  expect(res.headers()['content-disposition']).toBe(`attachment; filename="silo-export-${owner.id}-live-${today}-${today}.zip"`);
  const file = path.join(dir, `${randomUUID()}.zip`);
  await writeFile(file, body);

  const listing = execFileSync('unzip', ['-l', file]).toString();
  expect(listing).toContain(`files/${entry.id}/${v1.id}/v1-inv.xml`);
  expect(listing).toContain(`files/${entry.id}/${v2.id}/v1-scan.pdf`);
  expect(listing).not.toContain('sandbox.xml');
  expect(execFileSync('unzip', ['-p', file, `files/${entry.id}/${v2.id}/v1-scan.pdf`]).equals(big)).toBe(true);
  expect(sha256(execFileSync('unzip', ['-p', file, `files/${entry.id}/${v1.id}/v1-inv.xml`]))).toBe(sha256(xml));

  const key = await (await request.get('/utils/v1/audit-key')).json();
  const pem = path.join(dir, 'audit-key.pem');
  await writeFile(pem, key.public_key);
  const ok = verifyExport(file, '--public-key', pem);
  expect(ok.stdout, ok.stderr).toMatch(new RegExp(`^OK: ${owner.id}/live, ${today} to ${today}: \\d+ members, 2 versions`));
  expect(ok.status).toBe(0);

  const tampered = Buffer.from(body);
  const at = body.indexOf(Buffer.from('<Invoice>7</Invoice>'));
  tampered[at + 9] ^= 0x20;
  await writeFile(file, tampered);
  const broken = verifyExport(file, '--public-key', pem);
  expect(broken.status).toBe(1);
  expect(broken.stdout).toMatch(/^BROKEN: .*v1-inv\.xml/);

  // the export is in the event log, with the manifest it handed out
  const events = (await (await request.get('/silo/v1/events?type=export.created', { headers: bearer(owner.liveKey) })).json()).list;
  expect(events).toHaveLength(1);
  expect(events[0].actor.type).toBe('owner_key');
  expect(events[0].data).toMatchObject({ from: today, to: today, versions: 2, size: body.length });
  expect(events[0].data.manifest_sha256).toBe(sha256(execFileSync('unzip', ['-p', await tmpCopy(body), 'manifest.json'])));

  // HEAD: GET's checks and headers, no body, no export made (and so no record of one)
  const head = await request.head(`/silo/v1/export?from=${today}&to=${today}`, { headers: bearer(owner.liveKey) });
  expect([head.status(), head.headers()['content-type'], (await head.body()).length]).toEqual([200, 'application/zip', 0]);
  expect((await request.head(`/silo/v1/export?from=${today}&to=2000-01-01`, { headers: bearer(owner.liveKey) })).status()).toBe(422);
  const after = (await (await request.get('/silo/v1/events?type=export.created', { headers: bearer(owner.liveKey) })).json()).list;
  expect(after).toHaveLength(1);
});

async function tmpCopy(body: Buffer) {
  const f = path.join(dir, `${randomUUID()}.zip`);
  await writeFile(f, body);
  return f;
}

test('a console member exports a workspace they belong to, naming it with X-Silo-Owner', async ({
  admin,
  playwright,
  server,
  request,
  newOwner,
}) => {
  const owner = await newOwner();
  const entry = await createEntry(request, owner.liveKey, {});
  await inlineFile(request, owner.liveKey, entry.id, { name: 'a.txt', data: b64('a') });
  const email = `m-${randomUUID().slice(0, 8)}@example.com`;
  const made = await admin.post('/admin/v1/users', {
    data: { email, name: 'M', password: 'correct horse battery', owner_ids: [owner.id] },
  });
  expect(made.status(), await made.text()).toBe(201);
  const ctx = await signIn(playwright, server.url, email, 'correct horse battery');
  const res = await ctx.get(`/silo/v1/export?from=${today}&to=${today}`, { headers: { 'X-Silo-Owner': owner.id } });
  expect(res.status(), await res.text()).toBe(200);
  const file = await tmpCopy(await res.body());
  expect(verifyExport(file).stdout).toMatch(/^OK: .* 1 versions/);
  // another workspace: the API's 404 is a 403 here (the member check of a collection call)
  const stranger = await newOwner();
  const refused = await ctx.get(`/silo/v1/export?from=${today}&to=${today}`, { headers: { 'X-Silo-Owner': stranger.id } });
  expect([403, 404]).toContain(refused.status());
  await ctx.dispose();
});

test('bad periods and callers get the contract error body', async ({ request, admin, newOwner }) => {
  const owner = await newOwner();
  const h = { headers: bearer(owner.liveKey) };
  const field = async (query: string, name: string) =>
    (await expectError(await request.get(`/silo/v1/export${query}`, h), 422, 'validation')).fields?.[name];
  expect(await field('', 'from')).toBeTruthy();
  expect(await field('?from=2026-01-01', 'to')).toBeTruthy();
  expect(await field('?from=2026-02-30&to=2026-03-01', 'from')).toMatch(/real date/);
  expect(await field('?from=26-01-01&to=2026-03-01', 'from')).toMatch(/YYYY-MM-DD/);
  expect(await field('?from=2026-03-02&to=2026-03-01', 'to')).toMatch(/before from/);
  expect(await field('?from=2024-01-01&to=2025-01-01', 'to')).toMatch(/366 days/);
  expect((await request.get('/silo/v1/export?from=2024-01-01&to=2024-12-31', h)).status()).toBe(200); // a leap year: 366 days
  await expectError(await request.get(`/silo/v1/export?from=${today}&to=${today}`), 401, 'unauthorized');
  await expectError(await admin.get(`/silo/v1/export?from=${today}&to=${today}`), 403, 'forbidden');
  // an application's token reads entries, not the whole record (older webhook records hold endpoint URLs)
  const token = await enrollmentToken(admin, request, owner.id);
  await expectError(await request.get(`/silo/v1/export?from=${today}&to=${today}`, { headers: bearer(token) }), 403, 'forbidden');
  expect((await request.head(`/silo/v1/export?from=${today}&to=${today}`, { headers: bearer(token) })).status()).toBe(403);
  await expectError(await request.post(`/silo/v1/export?from=${today}&to=${today}`, h), 405, 'method_not_allowed');
});

test('a reader that hangs up mid-export leaves the server serving', async ({ request, server, newOwner }) => {
  const owner = await newOwner();
  const entry = await createEntry(request, owner.liveKey, {});
  for (let i = 0; i < 4; i++) await inlineFile(request, owner.liveKey, entry.id, { name: `${i}.bin`, data: b64(Buffer.alloc(4 << 20, i)) });
  const got = await new Promise<number>((resolve, reject) => {
    const s = exportSocket(server.url, owner.liveKey);
    let n = 0;
    s.on('data', (b) => {
      n += b.length;
      if (n > 1 << 20) {
        s.destroy();
        resolve(n);
      }
    });
    s.on('error', reject);
  });
  expect(got).toBeGreaterThan(1 << 20);
  expect((await request.get('/utils/v1/ping')).status()).toBe(200);
  const again = await request.get(`/silo/v1/export?from=${today}&to=${today}`, { headers: bearer(owner.liveKey) });
  expect(again.status()).toBe(200);
  expect((await again.body()).length).toBe(Number(again.headers()['content-length']));
});

test('large versions arrive byte for byte through the reused read buffers, also to a slow reader', async ({
  request,
  server,
  newOwner,
}) => {
  const owner = await newOwner();
  const entry = await createEntry(request, owner.liveKey, {});
  // distinct random bytes, each over the database's ceiling (read from disk) and several 1 MiB chunks
  const blobs = Array.from({ length: 4 }, () => randomBytes((2 << 20) + 12345));
  const ids: string[] = [];
  for (const [i, data] of blobs.entries())
    ids.push((await inlineFile(request, owner.liveKey, entry.id, { name: `${i}.bin`, data: b64(data) })).id);
  // a reader that takes the ZIP 64 KiB at a time, pausing between: the server waits on drain
  const body = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const s = exportSocket(server.url, owner.liveKey, true);
    s.on('data', (b: Buffer) => {
      chunks.push(b);
      s.pause();
      setTimeout(() => s.resume(), 2);
    });
    s.on('end', () => resolve(Buffer.concat(chunks)));
    s.on('error', reject);
  });
  const head = body.indexOf('\r\n\r\n');
  expect(body.subarray(0, head).toString()).toMatch(/^HTTP\/1\.1 200/);
  const file = path.join(dir, `${randomUUID()}.zip`);
  await writeFile(file, body.subarray(head + 4));
  for (const [i, data] of blobs.entries())
    expect(execFileSync('unzip', ['-p', file, `files/${entry.id}/${ids[i]}/v1-${i}.bin`], { maxBuffer: 16 << 20 }).equals(data)).toBe(true);
  expect(execFileSync('unzip', ['-tq', file]).toString()).toMatch(/No errors detected/);
});

test("a server killed mid-export leaves its plan's directory, and removes it when it starts again", async ({ database }) => {
  test.setTimeout(120_000);
  const tmp = await mkdtemp(path.join(dir, 'tmpdir-'));
  const s = await startServer({ database, env: { TMPDIR: tmp } });
  try {
    const h = { ...bearer(s.adminKey), 'Content-Type': 'application/json' };
    const owner = await (await fetch(`${s.url}/admin/v1/owners`, { method: 'POST', headers: h, body: '{"name":"Killed"}' })).json();
    const key = owner.api_keys[0].key as string;
    const kh = { ...bearer(key), 'Content-Type': 'application/json' };
    const entry = await (await fetch(`${s.url}/silo/v1/entries`, { method: 'POST', headers: kh, body: '{"name":"e"}' })).json();
    for (let i = 0; i < 3; i++)
      await fetch(`${s.url}/silo/v1/entries/${entry.id}/files`, {
        method: 'POST',
        headers: kh,
        body: JSON.stringify({ name: `${i}.bin`, data: b64(randomBytes(3 << 20)) }),
      });
    // a reader that takes the first bytes, then stops: the export is under way when the server dies
    const sock = exportSocket(s.url, key);
    await new Promise<void>((resolve) => sock.once('data', () => resolve()));
    sock.pause();
    const plans = async () => (await readdir(tmp)).filter((n) => n.startsWith('silo-export-'));
    const left = await plans();
    expect(left).toHaveLength(1);
    expect(left[0]).toContain(`-${s.pid}-`);
    await s.kill('SIGKILL');
    sock.destroy();
    expect(await plans()).toEqual(left);
    await s.restart();
    // the start-up sweeps run beside the first requests
    await expect.poll(plans, { timeout: 15_000 }).toEqual([]);
    expect(s.output()).toContain(left[0]);
    expect((await fetch(`${s.url}/utils/v1/ping`)).status).toBe(200);
  } finally {
    await s.stop();
  }
});
