// `npm run verify-events` on an embedded database, as an operator runs it: exit 0 when every chain
// holds, 1 naming the first bad record after one record was edited behind the triggers, and 1 when
// the checkpoints were signed by a key other than the one the operator kept; a checkpoint's RFC 3161
// token is checked (against the authority pinned with --tsa-cert) and a bad one named.
import { execFile } from 'node:child_process';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../lib/db/client';
import { appendEvent } from '../lib/events/append-event';
import { systemActor } from '../lib/events/catalogue';
import { checkpointChains, checkpointPayload, presentCheckpoint, timestampCheckpoints } from '../lib/events/checkpoints';
import { auditKeyOf } from '../lib/events/signing-key';
import { presentEvent } from '../lib/events/record';
import { witnessHeader } from '../lib/events/witness';
import { withRequestId } from '../lib/log';
import { requestTimestamp } from '../lib/events/timestamp';
import { startTestTsa } from '../lib/testing/test-tsa';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '..');
let dir: string;
// the key the records are signed with (lib/testing/audit-key-setup.ts): the script gets the same
const pem = process.env.AUDIT_SIGNING_KEY as string;

async function verifyEvents(...args: string[]): Promise<{ code: number; out: string }> {
  const env = { ...process.env, DATA_DIR: dir, AUDIT_SIGNING_KEY: pem, DATABASE_URL: '', LOG_LEVEL: 'silent' };
  delete (env as Record<string, string | undefined>).DATABASE_URL;
  try {
    const { stdout } = await run(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/verify-events.ts', ...args], {
      cwd: ROOT,
      env,
    });
    return { code: 0, out: stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

/** Opens the data directory's database, runs `fn`, closes it (the script takes the directory's lock after). */
async function withDb(fn: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<void>) {
  const db = await openDatabase({ dataDir: path.join(dir, 'db') });
  try {
    await fn(db);
  } finally {
    await db.close();
  }
}

let owner: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'silo-verify-events-'));
  await withDb(async (db) => {
    owner = (await db.prisma.owner.create({ data: { id: randomUUID(), name: 'Audited' } })).id;
    for (let i = 0; i < 4; i++)
      await appendEvent(db.prisma, {
        type: 'entry.created',
        ownerId: owner,
        sandbox: false,
        actor: systemActor('test'),
        data: { name: `e ${i}` },
      });
    await checkpointChains(db.prisma, auditKeyOf(pem));
  });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

it('says every chain holds, then names the record edited behind the triggers, and a key it was not given', async () => {
  const good = await verifyEvents();
  expect(good.out).toMatch(/\/live: ok, 4 records \(0 from before record signatures\), 1 signed checkpoints/);
  expect(good.code).toBe(0);

  const other = path.join(dir, 'other.pub');
  await writeFile(other, generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString());
  const wrongKey = await verifyEvents('--public-key', other);
  expect(wrongKey.code).toBe(1);
  // the records themselves are signed by the key the server holds: the first one is named
  expect(wrongKey.out).toMatch(/BROKEN at record 1: record 1 was not written by this instance's server: bad signature/);

  await withDb((db) =>
    db.sql.exec(
      `BEGIN; ALTER TABLE events DISABLE TRIGGER ALL; UPDATE events SET data = '{"name": "forged"}' WHERE owner_id = '${owner}' AND seq = 2; ALTER TABLE events ENABLE TRIGGER ALL; COMMIT;`,
    ),
  );
  const bad = await verifyEvents('--owner', owner);
  expect(bad.code).toBe(1);
  expect(bad.out).toMatch(new RegExp(`${owner}/live: BROKEN at record 2: record 2 is not what its hash says`));
}, 120_000);

it("checks each checkpoint's time-stamp and names a checkpoint kept with another payload's token", async () => {
  const tsa = await startTestTsa();
  const owners: string[] = [];
  try {
    await withDb(async (db) => {
      for (const name of ['Stamped', 'Swapped']) {
        const id = (await db.prisma.owner.create({ data: { id: randomUUID(), name } })).id;
        owners.push(id);
        for (let i = 0; i < 3; i++)
          await appendEvent(db.prisma, { type: 'entry.created', ownerId: id, sandbox: false, actor: systemActor('test'), data: {} });
      }
      await checkpointChains(db.prisma, auditKeyOf(pem));
      // the second workspace's checkpoint is kept with a token of the first one's payload
      const first = presentCheckpoint(await db.prisma.checkpoint.findFirstOrThrow({ where: { ownerId: owners[0] } }));
      const swapped = await requestTimestamp(tsa.url, checkpointPayload(first));
      await db.prisma.checkpointTimestamp.create({
        data: { ownerId: owners[1], sandbox: false, seq: 3n, token: swapped.token, genTime: swapped.genTime },
      });
      await timestampCheckpoints(db.prisma, { url: tsa.url });
    });
  } finally {
    await tsa.close();
  }
  const ca = path.join(dir, 'tsa-ca.pem');
  await writeFile(ca, tsa.caPem);
  const good = await verifyEvents('--owner', owners[0], '--tsa-cert', ca);
  expect(good.out).toMatch(/\/live: ok, 3 records \(0 from before record signatures\), 1 signed checkpoints \(1 time-stamped\)/);
  expect(good.code).toBe(0);
  const bad = await verifyEvents('--owner', owners[1], '--tsa-cert', ca);
  expect(bad.code).toBe(1);
  expect(bad.out).toMatch(/BROKEN at record 3: the checkpoint at record 3 has a bad time-stamp: the time-stamp token is for other bytes/);
}, 120_000);

it("checks a deleted workspace's chain by the final record its delete kept, and names one forged after", async () => {
  const id = randomUUID();
  await withDb(async (db) => {
    await db.prisma.owner.create({ data: { id, name: 'Deleted' } });
    for (let i = 0; i < 3; i++)
      await appendEvent(db.prisma, {
        type: 'entry.created',
        ownerId: id,
        sandbox: false,
        actor: systemActor('test'),
        data: { name: `d ${i}` },
      });
    await db.sql.exec(`DELETE FROM owners WHERE id = '${id}'`);
  });
  const good = await verifyEvents('--owner', id);
  expect(good.out).toMatch(new RegExp(`${id}/live \\(deleted [^)]+\\): ok, final record 3 [0-9a-f]{64}`));
  expect(good.out).toMatch(/0 chains verified, 1 of deleted workspaces/);
  expect(good.code).toBe(0);

  await withDb((db) =>
    db.sql.exec(
      `BEGIN; ALTER TABLE deleted_chains DISABLE TRIGGER ALL; UPDATE deleted_chains SET final_record = jsonb_set(final_record, '{data,name}', '"forged"') WHERE owner_id = '${id}'; ALTER TABLE deleted_chains ENABLE TRIGGER ALL; COMMIT;`,
    ),
  );
  const bad = await verifyEvents('--owner', id);
  expect(bad.code).toBe(1);
  expect(bad.out).toMatch(new RegExp(`${id}/live \\(deleted [^)]+\\): BROKEN: its kept final record is not the record 3 its head names`));
}, 120_000);

it('passes a tail cut with its checkpoints, but names its first missing seq from a witness file; names a record appended through SQL', async () => {
  const id = randomUUID();
  const headers: string[] = [];
  let kept = '';
  await withDb(async (db) => {
    await db.prisma.owner.create({ data: { id, name: 'Cut' } });
    for (let i = 0; i < 5; i++)
      headers.push(
        await withRequestId(`cut-${i}`, async () => {
          await appendEvent(db.prisma, { type: 'entry.created', ownerId: id, sandbox: false, actor: systemActor('test'), data: { i } });
          return witnessHeader() as string;
        }),
      );
    await checkpointChains(db.prisma, auditKeyOf(pem));
    // what a client kept: record 2 as /events showed it, then record 5's Silo-Event header value
    kept = JSON.stringify(presentEvent(await db.prisma.event.findFirstOrThrow({ where: { ownerId: id, seq: 2n } })));
    const third = await db.prisma.event.findFirstOrThrow({ where: { ownerId: id, seq: 3n } });
    await db.sql.exec(`BEGIN; ALTER TABLE events DISABLE TRIGGER ALL; ALTER TABLE checkpoints DISABLE TRIGGER ALL;
      DELETE FROM events WHERE owner_id = '${id}' AND seq > 3; DELETE FROM checkpoints WHERE owner_id = '${id}';
      UPDATE chain_heads SET seq = 3, hash = '${third.hash}' WHERE owner_id = '${id}';
      ALTER TABLE events ENABLE TRIGGER ALL; ALTER TABLE checkpoints ENABLE TRIGGER ALL; COMMIT;`);
  });
  const file = path.join(dir, 'witness.txt');
  await writeFile(file, `${kept}\n${headers[4]}\n`);
  const alone = await verifyEvents('--owner', id);
  expect(alone.out).toMatch(/\/live: ok, 3 records \(0 from before record signatures\)/);
  expect(alone.code).toBe(0);
  const witnessed = await verifyEvents('--owner', id, '--witness', file);
  expect(witnessed.out).toMatch(
    new RegExp(`${id}/live: BROKEN at record 5: record 5 is missing: a witness kept it, but the records end at 3`),
  );
  expect(witnessed.code).toBe(1);

  await withDb((db) =>
    db.sql.exec(`SELECT silo_append_events(ARRAY['${randomUUID()}']::uuid[], '${id}', false, ARRAY['legal_hold.cleared'],
      '{"type":"admin_key"}', NULL, NULL, ARRAY[NULL]::int[], ARRAY['{}'], NULL, ARRAY[NULL]::text[])`),
  );
  const forged = await verifyEvents('--owner', id);
  expect(forged.out).toMatch(/BROKEN at record 4: record 4 was not written by this instance's server: no signature/);
  expect(forged.code).toBe(1);
}, 120_000);
