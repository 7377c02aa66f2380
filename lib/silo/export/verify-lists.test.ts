// verify-export's lists (verify-lists.ts): the members, manifest.json's files and files.csv's rows
// compared by digests in order, and, where they differ, one by one. An export is rebuilt with one
// list changed and its manifest signed again with the audit key: what still holds
// (the same members listed in another order) is OK, what does not is named as before.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createWriteStream } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBytes } from '../../events/signing-key';
import { TEST_ACTOR } from '../../testing/actor';
import { testWorld, type TestWorld } from '../../testing/database';
import { BOM, csvRecord, parseCsv } from './csv';
import { exportTo, fillWorkspace, key, period } from '../../testing/export-fixtures';
import type { ExportMember, ExportPlan } from './plan-export';
import { verifyExport } from './verify-export';
import { writeExport } from './write-export';
import { readExportZip } from './zip-structure';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

type Member = { name: string; bytes: Buffer };
type Change = (members: Member[], manifest: { files: Record<string, { sha256: string; size: number }> }) => void;

let dir: string;
let w: TestWorld;
let original: Member[];
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'silo-verify-lists-'));
  w = await testWorld({ database: 'pglite' });
  const made = await fillWorkspace(w.db.prisma, w.store);
  const file = path.join(dir, 'original.zip');
  await exportTo(file, { db: w.db.prisma, store: w.store, chain: made.chain, period, key, actor: TEST_ACTOR, location: 'x' });
  const bytes = await readFile(file);
  original = (await readExportZip(file)).map((m) => ({ name: m.name, bytes: bytes.subarray(m.offset, m.offset + m.size) }));
}, 120_000);
afterAll(async () => {
  await w?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The export rebuilt after `change` (members, then the manifest listing them), its manifest signed again. */
async function rebuilt(name: string, change: Change = () => {}, changeManifest: Change = () => {}): Promise<string> {
  const members = original.filter((m) => !m.name.startsWith('manifest.')).map((m) => ({ ...m }));
  change(members, { files: {} });
  const manifest = JSON.parse(original[0].bytes.toString('utf8'));
  manifest.files = Object.fromEntries(members.map((m) => [m.name, { sha256: sha(m.bytes), size: m.bytes.length }]));
  changeManifest(members, manifest);
  const text = Buffer.from(`${JSON.stringify(manifest, null, 1)}\n`);
  const mtime = new Date('2025-01-01T00:00:00Z');
  const all = [{ name: 'manifest.json', bytes: text }, { name: 'manifest.sig', bytes: Buffer.from(signBytes(key, text)) }, ...members];
  const list: ExportMember[] = all.map((m) => ({ name: m.name, bytes: m.bytes, size: m.bytes.length, sha256: sha(m.bytes), mtime }));
  const plan = {
    async *members() {
      yield* list;
    },
    async dispose() {},
  } as unknown as ExportPlan;
  const file = path.join(dir, `${name}.zip`);
  await pipeline(writeExport(plan).stream, createWriteStream(file));
  return file;
}

/** files.csv's rows changed by `edit` (header kept). */
const filesCsv =
  (edit: (rows: string[][]) => string[][]): Change =>
  (members) => {
    const m = members.find((x) => x.name === 'files.csv') as Member;
    const [header, ...rows] = parseCsv(m.bytes.toString('utf8'));
    m.bytes = Buffer.from(BOM + [header, ...edit(rows)].map(csvRecord).join(''));
  };
const verify = (file: string) => verifyExport(file, { publicKey: key.publicKey });

describe('verify-export, lists compared by digest and then one by one', () => {
  it('says OK for the export rebuilt as it was, and with the manifest or files.csv in another order', async () => {
    await expect(verify(await rebuilt('same'))).resolves.toMatchObject({ versions: 5 });
    const reversed = await rebuilt('manifest-order', undefined, (_, manifest) => {
      manifest.files = Object.fromEntries(Object.entries(manifest.files).reverse());
    });
    await expect(verify(reversed)).resolves.toMatchObject({ versions: 5 });
    await expect(
      verify(
        await rebuilt(
          'csv-order',
          filesCsv((rows) => rows.reverse()),
        ),
      ),
    ).resolves.toMatchObject({ versions: 5 });
  });

  it('names a member the manifest says another size of, or does not list', async () => {
    const victim = original.find((m) => m.name.startsWith('files/'))?.name as string;
    const sized = await rebuilt('size', undefined, (_, manifest) => {
      manifest.files[victim].size += 1;
    });
    await expect(verify(sized)).rejects.toThrow(`${victim}: is `);
    const missing = await rebuilt('unlisted', undefined, (_, manifest) => {
      delete manifest.files[victim];
    });
    await expect(verify(missing)).rejects.toThrow(`${victim}: is not in manifest.json`);
  });

  it("names files.csv's row whose sha256 or entry is wrong, and a version it does not list", async () => {
    const [sha256, entry] = [10, 1];
    const bad = await rebuilt(
      'row-sha',
      filesCsv((rows) => rows.map((r, i) => (i === 2 ? r.map((f, j) => (j === sha256 ? '0'.repeat(64) : f)) : r))),
    );
    await expect(verify(bad)).rejects.toThrow(/files\.csv, record 4 .*the row says 0{64}/);
    const stray = await rebuilt(
      'row-entry',
      filesCsv((rows) => rows.map((r, i) => (i === 1 ? r.map((f, j) => (j === entry ? '00000000-0000-0000-0000-000000000000' : f)) : r))),
    );
    await expect(verify(stray)).rejects.toThrow(/files\.csv, record 3 .*its entry 0{8}-.* is not in entries\.csv/);
    const dropped = await rebuilt(
      'row-gone',
      filesCsv((rows) => rows.slice(1)),
    );
    await expect(verify(dropped)).rejects.toThrow(/: is not a version files\.csv lists/);
  });
});
