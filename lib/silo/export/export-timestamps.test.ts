// The auditor's export of RFC 3161 time-stamped checkpoints (a test authority on loopback): each
// token in checkpoints.jsonl, checked by verify-export; a token that arrives while an export is
// sent stays out of it.
import { execFileSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainName } from '../../events/chain';
import { checkpointChains, timestampCheckpoints } from '../../events/checkpoints';
import { testWorld, type TestWorld } from '../../testing/database';
import { startTestTsa, type TestTsa } from '../../testing/test-tsa';
import { exportTo, fillWorkspace, key, period } from '../../testing/export-fixtures';
import { planExport } from './plan-export';
import { checkpointsOf, verifyExport } from './verify-export';
import { writeExport } from './write-export';
import { readExportZip } from './zip-structure';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'silo-export-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the export of time-stamped checkpoints (RFC 3161, a test authority on loopback)', () => {
  let w: TestWorld;
  let tsa: TestTsa;
  beforeAll(async () => {
    [w, tsa] = await Promise.all([testWorld(), startTestTsa()]);
  }, 180_000);
  afterAll(async () => {
    await w?.close();
    await tsa?.close();
  });

  it('carries each checkpoint token in checkpoints.jsonl and checks it; a token that arrives while the export is sent stays out', async () => {
    const made = await fillWorkspace(w.db.prisma, w.store);
    await checkpointChains(w.db.prisma, key);
    // Planned before the token exists: the member was hashed without it, and is sent without it.
    const plan = await planExport({ db: w.db.prisma, store: w.store, chain: made.chain, period, key, location: 'x' });
    expect(await timestampCheckpoints(w.db.prisma, { url: tsa.url })).toBeGreaterThan(0);
    const late = path.join(dir, 'late-token.zip');
    await pipeline(writeExport(plan).stream, createWriteStream(late));
    const before = await verifyExport(late);
    expect(before.timestamps).toBe(0);

    const file = path.join(dir, 'stamped.zip');
    await exportTo(file, { db: w.db.prisma, store: w.store, chain: made.chain, period, key, actor: null, location: 'x' });
    const verdict = await verifyExport(file);
    expect(verdict.timestamps).toBeGreaterThan(0);
    const lines = (await readExportZip(file)).find((m) => m.name === 'checkpoints.jsonl');
    expect(lines).toBeDefined();

    // A token swapped for another checkpoint's payload is named (the manifest re-signed to match).
    const text = execFileSync('unzip', ['-p', file, 'checkpoints.jsonl']).toString();
    const stamped = text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const bad = stamped.find((c) => c.timestamp);
    expect(bad).toBeDefined();
    const tokenBytes = Buffer.from(bad.timestamp.token, 'base64');
    tokenBytes[tokenBytes.length - 5] ^= 0x01;
    const broken = text.replace(bad.timestamp.token, tokenBytes.toString('base64'));
    const manifest = { chain: chainName(made.chain), key_id: key.keyId };
    expect((await checkpointsOf(text, manifest, key.publicKey)).size).toBe(stamped.length);
    await expect(checkpointsOf(broken, manifest, key.publicKey)).rejects.toThrow(/bad time-stamp/);
  });
});
