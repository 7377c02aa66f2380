// An export's records against what a client kept (docs/api.md, Events, "Witnesses"), on both
// databases: each record's sig is checked with the audit key; a record appended through SQL is
// named; a tail cut with its checkpoints passes alone, and is named by its first missing seq
// given a witness kept before the cut (verifyExport and `npm run verify-export -- … --witness`).
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWitnesses } from '../../events/witness-file';
import { TEST_ACTOR } from '../../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../../testing/database';
import { exportTo, fillWorkspace, key, period } from '../../testing/export-fixtures';
import { verifyExport } from './verify-export';
import { readExportZip } from './zip-structure';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'silo-export-witness-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function verifyExportScript(...args: string[]) {
  try {
    const { stdout } = await run(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/verify-export.ts', ...args], { cwd: ROOT });
    return { code: 0, out: stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

describe.each(testDatabases())('an export with witnesses on %s', (database) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await testWorld({ database });
  }, 180_000);
  afterAll(() => w?.close());

  const exported = async (name: string, made: Awaited<ReturnType<typeof fillWorkspace>>) => {
    const file = path.join(dir, `${database}-${name}.zip`);
    await exportTo(file, { db: w.db.prisma, store: w.store, chain: made.chain, period, key, actor: TEST_ACTOR, location: 'x' });
    return file;
  };
  const lastRecord = async (file: string) => {
    const m = (await readExportZip(file)).find((x) => x.name === 'events.jsonl');
    if (!m) throw new Error('no events.jsonl');
    const bytes = (await readFile(file)).subarray(m.offset, m.offset + m.size).toString('utf8');
    return bytes.trim().split('\n').at(-1) as string;
  };

  it('passes a tail cut with its checkpoints alone, and names its first missing seq from a witness', async () => {
    const made = await fillWorkspace(w.db.prisma, w.store);
    const before = await exported('before', made);
    const kept = await lastRecord(before);
    const witness = path.join(dir, `${database}-witness.jsonl`);
    await writeFile(witness, `${kept}\n`);
    const seq = JSON.parse(kept).seq as number;
    const owner = made.owner.id;
    const third = await w.db.prisma.event.findFirstOrThrow({ where: { ownerId: owner, sandbox: false, seq: BigInt(seq - 2) } });
    await w.db.sql.exec(`BEGIN; ALTER TABLE events DISABLE TRIGGER ALL; ALTER TABLE checkpoints DISABLE TRIGGER ALL;
      DELETE FROM events WHERE owner_id = '${owner}' AND seq > ${seq - 2}; DELETE FROM checkpoints WHERE owner_id = '${owner}';
      UPDATE chain_heads SET seq = ${seq - 2}, hash = '${third.hash}' WHERE owner_id = '${owner}' AND sandbox = false;
      ALTER TABLE events ENABLE TRIGGER ALL; ALTER TABLE checkpoints ENABLE TRIGGER ALL; COMMIT;`);
    const after = await exported('after', made);
    await expect(verifyExport(after, { publicKey: key.publicKey })).resolves.toMatchObject({ events: expect.any(Number) });
    await expect(verifyExport(after, { publicKey: key.publicKey, witnesses: readWitnesses(kept) })).rejects.toThrow(
      `record ${seq} is missing: a witness kept it, but the chain's records end at ${seq - 2}`,
    );
    expect(await verifyExportScript(after)).toMatchObject({ code: 0 });
    const named = await verifyExportScript(after, '--witness', witness);
    expect(named.out).toMatch(new RegExp(`BROKEN: events.jsonl: record ${seq} is missing`));
    expect(named.code).toBe(1);
  });

  it('names a record appended through SQL without the audit key', async () => {
    const made = await fillWorkspace(w.db.prisma, w.store);
    await w.db.sql.exec(`SELECT silo_append_events(ARRAY['${randomUUID()}']::uuid[], '${made.owner.id}', false, ARRAY['legal_hold.cleared'],
      '{"type":"admin_key"}', NULL, NULL, ARRAY[NULL]::int[], ARRAY['{}'], NULL, ARRAY[NULL]::text[])`);
    const file = await exported('forged', made);
    const last = JSON.parse(await lastRecord(file)).seq as number;
    await expect(verifyExport(file, { publicKey: key.publicKey })).rejects.toThrow(
      `record ${last} was not written by this instance's server: no signature`,
    );
  });
});
