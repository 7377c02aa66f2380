// An auditor's export holds the event records of its period and no other (docs/api.md, Export,
// Auditor keys), on both databases: a year of seeded records with checkpoints signed after each batch
// (so the checkpoint job's fall after the period's end), a key for one month, its export clamped to
// that month; events.jsonl is exactly the month's records, its last one has a signed checkpoint of
// its own, and `npm run verify-export` says OK on it — and BROKEN once its first record is changed.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyChain } from '../../events/verify-chain';
import { TEST_ACTOR } from '../../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../../testing/database';
import { seedWorkspace } from '../../testing/seed-workspace';
import { clampExportPeriod } from './create-export';
import { exportTo, key } from '../../testing/export-fixtures';
import { verifyExport } from './verify-export';
import { readExportZip } from './zip-structure';

const START = new Date('2025-03-01T00:00:00Z');
const END = new Date('2025-04-01T00:00:00Z');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'silo-export-records-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe.each(testDatabases())('an auditor key’s export on %s', (database) => {
  let w: TestWorld;
  let chain: { ownerId: string; sandbox: boolean };
  let zipFile: string;
  beforeAll(async () => {
    w = await testWorld({ database });
    // 300 entries over 2025: about 25 a month, checkpointed every 120 entries (4–5 months)
    const seeded = await seedWorkspace(w.db, { entries: 300, end: new Date('2025-12-31T12:00:00Z'), years: 1, batch: 120, key });
    chain = { ownerId: seeded.owner_id, sandbox: false };
    zipFile = path.join(dir, `${database}.zip`);
    // the days asked for reach past the key's month on both sides: the export gets March only
    const period = clampExportPeriod({ from: '2025-01-15', to: '2025-06-30' }, { start: START, end: END });
    expect(period).toEqual({ from: '2025-03-01', to: '2025-03-31' });
    await exportTo(zipFile, { db: w.db.prisma, store: w.store, chain, period, key, actor: TEST_ACTOR, location: 'x' });
  }, 180_000);
  afterAll(() => w?.close());

  const member = async (name: string) => {
    const m = (await readExportZip(zipFile)).find((x) => x.name === name);
    if (!m) throw new Error(`no ${name}`);
    const text = (await readFile(zipFile)).subarray(m.offset, m.offset + m.size).toString('utf8');
    return text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
  };

  it("holds the month's records, every one, and none made before or after it", async () => {
    const events = await member('events.jsonl');
    const inMonth = await w.db.prisma.event.findMany({
      where: { ownerId: chain.ownerId, sandbox: false, at: { gte: START, lt: END } },
      orderBy: { seq: 'asc' },
      select: { seq: true },
    });
    expect(inMonth.length).toBeGreaterThan(40);
    const outside = events.filter((e) => Date.parse(e.at) < START.getTime() || Date.parse(e.at) >= END.getTime());
    expect(outside.map((e) => `${e.seq} ${e.at}`)).toEqual([]);
    expect(events.map((e) => e.seq)).toEqual(inMonth.map((e) => Number(e.seq)));
  });

  it("ends in a signed checkpoint of the month's last record, and names no checkpoint outside the month", async () => {
    const events = await member('events.jsonl');
    const checkpoints = await member('checkpoints.jsonl');
    expect(checkpoints.at(-1)).toMatchObject({ seq: events.at(-1).seq, hash: events.at(-1).hash });
    for (const c of checkpoints) expect(c.seq).toBeGreaterThanOrEqual(events[0].seq);
    // it is the instance's checkpoint from now on: a second export of the month finds it
    const kept = await w.db.prisma.checkpoint.findMany({ where: { ownerId: chain.ownerId, sandbox: false, seq: events.at(-1).seq } });
    expect(kept).toHaveLength(1);
    // signed before the chain's head, after later ones: the chain still verifies, every checkpoint checked
    const verdict = await verifyChain(w.db.prisma, chain, key);
    expect(verdict).toMatchObject({ ok: true });
    expect(verdict.checkpoints).toBe(await w.db.prisma.checkpoint.count({ where: { ownerId: chain.ownerId, sandbox: false } }));
  });

  it('verifies with `npm run verify-export`, the run checked from its first record’s prev_hash', async () => {
    const verdict = await verifyExport(zipFile, { publicKey: key.publicKey });
    expect(verdict.notes.join('\n')).toMatch(/begins with the period's first record, \d+: its prev_hash is the hash of record \d+/);
    const pem = path.join(dir, `${database}.pem`);
    await writeFile(pem, key.publicPem);
    const run = spawnSync('npx', ['tsx', 'scripts/verify-export.ts', zipFile, '--public-key', pem], { encoding: 'utf8' });
    expect(run.stdout).toMatch(/^OK: /);
    expect(run.status).toBe(0);
  }, 60_000);

  it('is BROKEN when the first record is changed (its hash no longer holds)', async () => {
    expect(execFileSync('unzip', ['-t', zipFile]).toString()).toMatch(/No errors detected/);
    const bytes = await readFile(zipFile);
    const m = (await readExportZip(zipFile)).find((x) => x.name === 'events.jsonl');
    const at = bytes.indexOf('"type":"', m?.offset) + 8;
    const copy = Buffer.from(bytes);
    copy[at] ^= 0x01;
    await writeFile(path.join(dir, `${database}-bad.zip`), copy);
    await expect(verifyExport(path.join(dir, `${database}-bad.zip`), { publicKey: key.publicKey })).rejects.toThrow(/events\.jsonl/);
  });
});
