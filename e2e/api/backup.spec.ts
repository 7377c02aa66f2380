// GET /admin/v1/backup over HTTP, taken while writes go on, then `npm run restore` (the real script)
// onto the other backend — from the embedded database to PostgreSQL with two roles, from PostgreSQL
// to the embedded database (when TEST_DATABASE_URL is set; embedded to embedded otherwise) — and a
// server started there: every entry and version as the backup had them, bytes and facts, the old
// keys working, the chain verifying, fsck clean. A restore into a database holding data is refused;
// so is a damaged backup, naming its member.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { bearer, expect, test } from '../fixtures';
import { createDatabase, type SiloServer, startServer } from '../fixtures/server';
import { b64, createEntry, expectError, inlineFile, newUser, sha256, signIn } from './helpers';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '..', '..');

/** `npm run restore -- file` as an operator runs it, in `env`: its exit code and output. */
async function restore(file: string, env: Record<string, string>): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'scripts/restore.ts', file], {
      cwd: ROOT,
      env: { ...process.env, ...env } as NodeJS.ProcessEnv,
      maxBuffer: 1 << 24,
    });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

/** The keys that live outside the database, as the operator keeps them beside a backup. */
async function keysOf(server: SiloServer): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const pem = path.join(server.dataDir, 'audit-signing-key.pem');
  const secret = path.join(server.dataDir, 'session-secret');
  out.AUDIT_SIGNING_KEY = server.env.AUDIT_SIGNING_KEY ?? (await readFile(pem, 'utf8'));
  out.NEXTAUTH_SECRET = server.env.NEXTAUTH_SECRET ?? (await readFile(secret, 'utf8')).trim();
  return out;
}

test('a backup taken under writes restores onto the other backend, where everything reads as before', async ({
  request,
  newOwner,
  server,
  database,
  admin,
  playwright,
}) => {
  test.setTimeout(240_000);
  const owner = await newOwner('Backup GmbH');
  const entry = await createEntry(request, owner.liveKey, { name: 'Invoices 2026', folder: 'sales', key: 'INV' });
  const xml = await readFile(path.join(ROOT, 'lib/invoices/samples/xrechnung-ubl-invoice.xml'));
  const invoice = await inlineFile(request, owner.liveKey, entry.id, { name: 'invoice.xml', mime: 'application/xml', data: b64(xml) });
  expect(invoice.facts?.number).toBeTruthy();
  const big = randomBytes(600 * 1024); // over SMALL_BLOB_MAX_BYTES: in the store
  await inlineFile(request, owner.liveKey, entry.id, { name: 'scan.pdf', mime: 'application/pdf', data: b64(big) });
  const member = await newUser(admin, { owner_ids: [owner.id] });
  const hold = await request.put(`/silo/v1/entries/${entry.id}/legal-hold`, {
    headers: bearer(owner.liveKey),
    data: { hold: true, reason: 'audit' },
  });
  expect(hold.status()).toBe(200);

  // Writes go on while the backup is taken.
  let writing = true;
  let written = 0;
  const writes = (async () => {
    for (let i = 0; writing; i++) {
      const e = await createEntry(request, owner.liveKey, { name: `during ${i}` });
      await inlineFile(request, owner.liveKey, e.id, { name: `d${i}.txt`, mime: 'text/plain', data: b64(`during ${i}`) });
      written++;
    }
  })();
  await expect.poll(() => written).toBeGreaterThan(2);
  await expectError(await request.get('/admin/v1/backup'), 401, 'unauthorized');
  await expectError(await request.get('/admin/v1/backup', { headers: bearer(owner.liveKey) }), 403, 'forbidden');
  const head = await request.head('/admin/v1/backup', { headers: bearer(server.adminKey) });
  expect(head.status()).toBe(200);
  expect(head.headers()['content-disposition']).toMatch(/^attachment; filename="silo-backup-/);
  const res = await request.get('/admin/v1/backup', { headers: bearer(server.adminKey), timeout: 120_000 });
  writing = false;
  await writes;
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('application/zip');
  expect(res.headers()['content-disposition']).toMatch(/^attachment; filename="silo-backup-[0-9a-f-]+-\d{8}T\d{6}Z\.zip"$/);
  const body = await res.body();
  expect(body.length).toBe(Number(res.headers()['content-length']));

  const dir = await mkdtemp(path.join(os.tmpdir(), 'silo-backup-e2e-'));
  const target = database === 'pglite' && process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
  const db = target === 'postgres' ? await createDatabase({ twoRoles: true, empty: true }) : undefined;
  let restored: SiloServer | undefined;
  try {
    const file = path.join(dir, 'backup.zip');
    await writeFile(file, body);
    const env: Record<string, string> = {
      DATA_DIR: path.join(dir, 'data'),
      ...(await keysOf(server)),
      ...(db ? { DATABASE_URL: db.url, DATABASE_OWNER_URL: db.ownerUrl as string } : {}),
    };
    // A changed byte is refused, naming its member, and nothing is loaded.
    const damaged = path.join(dir, 'damaged.zip');
    const copy = Buffer.from(body);
    copy[body.indexOf(big.subarray(0, 64)) + 5000] ^= 1;
    await writeFile(damaged, copy);
    const refused = await restore(damaged, env);
    expect(refused.code, refused.out).toBe(1);
    // the ZIP's own CRC-32 finds it first: "refused: ZIP member 30 (blobs/<sha256>): the data's crc-32 is …"
    expect(refused.out).toMatch(new RegExp(`refused: ZIP member \\d+ \\(blobs/${sha256(big)}\\): the data's crc-32`));

    const done = await restore(file, env);
    expect(done.code, done.out).toBe(0);
    expect(done.out).toMatch(/restored: \d+ tables/);
    // Into a database that now holds the archive: refused.
    const again = await restore(file, env);
    expect(again.code, again.out).toBe(1);
    expect(again.out).toContain('restore into a new, empty database');

    restored = await startServer({
      database: target,
      dataDir: env.DATA_DIR,
      ...(db ? { databaseUrl: db.url } : {}),
      env,
    });
    const get = (p: string, key = owner.liveKey) => fetch(restored!.url + p, { headers: bearer(key) });
    // The same entries, versions, facts and bytes, through the owner's old key.
    const list = async (url: string) =>
      (await (await fetch(`${url}/silo/v1/entries?limit=100`, { headers: bearer(owner.liveKey) })).json()).list;
    const mine = await list(restored.url);
    expect(mine.length).toBeGreaterThan(1);
    const before = new Map((await list(server.url)).map((e: { id: string }) => [e.id, e]));
    // Those made before the writes began are as they are now; one made during the backup may have
    // got its file after the snapshot (fsck below: no version without its bytes).
    for (const e of mine) if (!e.name.startsWith('during')) expect(before.get(e.id), e.name).toEqual(e);
    expect(mine.filter((e: { name: string }) => !e.name.startsWith('during'))).toHaveLength(1);
    const files = await (await get(`/silo/v1/entries/${entry.id}/files`)).json();
    const scan = files.list.find((f: { name: string }) => f.name === 'scan.pdf');
    expect(Buffer.from(await (await get(`/silo/v1/entries/${entry.id}/files/${scan.id}`)).arrayBuffer()).equals(big)).toBe(true);
    const inv = files.list.find((f: { name: string }) => f.name === 'invoice.xml');
    expect(inv.facts).toEqual(invoice.facts);
    // The hold holds: the entry cannot be deleted.
    const del = await fetch(`${restored.url}/silo/v1/entries/${entry.id}`, { method: 'DELETE', headers: bearer(owner.liveKey) });
    expect(del.status).toBe(409);
    // A console user signs in with the same password, and sees the workspace.
    const session = await signIn(playwright, restored.url, member.email, member.password);
    const seen = await (await session.get('/admin/v1/owners')).json();
    expect(seen.list.map((o: { id: string }) => o.id)).toEqual([owner.id]);
    await session.dispose();
    // The chain verifies, with the signatures of the same audit key; fsck and verify-events pass.
    const verdict = await (await get('/silo/v1/events/verify')).json();
    expect(verdict.ok, JSON.stringify(verdict)).toBe(true);
    await restored.kill();
    for (const script of ['scripts/fsck.ts', 'scripts/verify-events.ts']) {
      const r = await run(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), script], {
        cwd: ROOT,
        env: { ...process.env, ...env } as NodeJS.ProcessEnv,
      }).catch((err) => err);
      expect(r.code ?? 0, `${script}: ${r.stdout}${r.stderr}`).toBe(0);
    }
    expect(existsSync(env.DATA_DIR)).toBe(true);
  } finally {
    await restored?.stop();
    await db?.drop();
    await rm(dir, { recursive: true, force: true });
  }
});
