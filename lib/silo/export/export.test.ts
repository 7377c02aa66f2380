// The auditor's export through the domain code, on both databases (on S3: export-s3.test.ts; with
// time-stamps: export-timestamps.test.ts): a period's versions (small ones kept in the database,
// larger ones in the store, a replacement, awkward names) with the tables, the event log's records
// and checkpoints, index.xml valid against the GDPdU DTD, a ZIP `unzip -t` accepts, and
// verify-export saying OK — then naming the place after one byte of any kind of member, and of the
// ZIP's own records, is changed. How it reads the versions' bytes (ahead, pooled, in batches):
// export-reads.test.ts.
import { execFileSync, spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditKeyOf } from '../../events/signing-key';
import { TEST_ACTOR } from '../../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../../testing/database';
import { parseCsv } from './csv';
import { exportTo, fillWorkspace, key, period, today } from '../../testing/export-fixtures';
import { planExport } from './plan-export';
import { verifyExport } from './verify-export';
import { writeExport } from './write-export';
import { readExportZip } from './zip-structure';

const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'silo-export-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe.each(testDatabases())('the export on %s (local disk)', (database) => {
  let w: TestWorld;
  let made: Awaited<ReturnType<typeof fillWorkspace>>;
  let zipFile: string;
  beforeAll(async () => {
    w = await testWorld({ database });
    made = await fillWorkspace(w.db.prisma, w.store);
    zipFile = path.join(dir, `${database}.zip`);
  }, 180_000);
  afterAll(() => w?.close());

  it('holds every version of the period, the tables, the records, and says so in a signed manifest', async () => {
    const { size } = await exportTo(zipFile, {
      db: w.db.prisma,
      store: w.store,
      chain: made.chain,
      period,
      key,
      actor: TEST_ACTOR,
      location: 'https://silo.test',
    });
    const bytes = await readFile(zipFile);
    expect(bytes.length).toBe(size);

    const members = await readExportZip(zipFile);
    const names = members.map((m) => m.name);
    expect(names.slice(0, 8)).toEqual([
      'manifest.json',
      'manifest.sig',
      'index.xml',
      'gdpdu-01-09-2004.dtd',
      'entries.csv',
      'files.csv',
      'events.jsonl',
      'checkpoints.jsonl',
    ]);
    for (const f of made.files) {
      const m = members.find((x) => x.name.startsWith(`files/${f.entryId}/${f.id}/v${f.version}-`));
      expect(m?.sha256, f.name).toBe(f.hash);
    }
    expect(names).toContain(`files/${made.files[2].entryId}/${made.files[2].id}/v1-scan_page_1_.pdf`);
    const at = (name: string) => {
      const m = members.find((x) => x.name === name);
      if (!m) throw new Error(`no ${name}`);
      return bytes.subarray(m.offset, m.offset + m.size);
    };
    expect(at(members.find((m) => m.name.includes(made.files[2].id))?.name ?? '').equals(made.big)).toBe(true);

    const filesCsv = parseCsv(at('files.csv').toString('utf8'));
    expect(at('files.csv').subarray(0, 3).toString('hex')).toBe('efbbbf');
    expect(filesCsv[0]).toEqual([
      'file_id',
      'entry_id',
      'entry_key',
      'folder',
      'category',
      'file_key',
      'version',
      'name',
      'mime',
      'size',
      'sha256',
      'stored_at',
      'stored_on',
      'created_by_type',
      'created_by_id',
      'created_by_name',
      'path',
    ]);
    expect(filesCsv).toHaveLength(made.files.length + 1);
    expect(filesCsv.find((r) => r[0] === made.files[1].id)?.slice(5, 8)).toEqual(['xml', '2', 'inv v2.xml']);
    const entriesCsv = parseCsv(at('entries.csv').toString('utf8'));
    expect(entriesCsv.find((r) => r[1] === 'INV-1')?.slice(3)).toEqual([
      'Rechnung "1", Köln',
      expect.any(String),
      '{"customer":"=HYPERLINK(\\"x\\")"}',
    ]);
    expect(at('entries.csv').toString('utf8')).toContain('"Rechnung ""1"", Köln"');
    expect(entriesCsv.find((r) => r[1] === '+49 line')?.[3]).toBe('two\nlines');

    const events = at('events.jsonl')
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events[0].seq).toBe(1);
    expect(events.map((e) => e.type)).toContain('file.stored');
    const checkpoints = at('checkpoints.jsonl')
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(checkpoints.at(-1).seq).toBe(events.at(-1).seq);

    // The export was recorded, after its own records: the next export of the day shows it.
    const recorded = await w.db.prisma.event.findFirst({ where: { ownerId: made.owner.id, type: 'export.created' } });
    expect(recorded?.data).toMatchObject({ from: today, to: today, versions: made.files.length, size });
    expect(events.map((e) => e.type)).not.toContain('export.created');

    const verdict = await verifyExport(zipFile, { publicKey: key.publicKey });
    expect(verdict).toMatchObject({ versions: made.files.length, events: events.length, keyGiven: true });
    expect(verdict.notes.join('\n')).toMatch(/entries\.csv: \d+ field\(s\) begin with = \+ - @/);
  });

  it.runIf(has('unzip'))('opens in unzip (-t: every member read and its CRC checked)', () => {
    const out = execFileSync('unzip', ['-t', zipFile]).toString();
    expect(out).toMatch(/No errors detected/);
  });

  it.runIf(has('xmllint'))('index.xml is valid against gdpdu-01-09-2004.dtd', async () => {
    const out = path.join(dir, `${database}-xml`);
    execFileSync('unzip', ['-o', '-q', zipFile, 'index.xml', 'gdpdu-01-09-2004.dtd', '-d', out]);
    const r = spawnSync('xmllint', ['--noout', '--dtdvalid', path.join(out, 'gdpdu-01-09-2004.dtd'), path.join(out, 'index.xml')]);
    expect(r.stderr.toString()).toBe('');
    expect(r.status).toBe(0);
    // and the check can fail: a Table without its URL is not valid
    const broken = (await readFile(path.join(out, 'index.xml'), 'utf8')).replace(/<URL>files\.csv<\/URL>/, '');
    await writeFile(path.join(out, 'broken.xml'), broken);
    expect(
      spawnSync('xmllint', ['--noout', '--dtdvalid', path.join(out, 'gdpdu-01-09-2004.dtd'), path.join(out, 'broken.xml')]).status,
    ).not.toBe(0);
  });

  it('verify names the place after one byte of each kind of member, and of the ZIP records, is changed', async () => {
    const bytes = await readFile(zipFile);
    const members = await readExportZip(zipFile);
    const offsets: { at: number; what: string }[] = [];
    for (const m of members) {
      if (m.size === 0) continue;
      for (const at of [m.offset, m.offset + (m.size >> 1), m.offset + m.size - 1]) offsets.push({ at, what: m.name });
    }
    // The bytes that are no member's data (local headers, data descriptors, central directory, end
    // record): every one on PGlite, every 7th on PostgreSQL (the verifier is the same; it saves time).
    const data = members.map((m) => [m.offset, m.offset + m.size]);
    const stride = database === 'pglite' ? 1 : 7;
    for (let at = 0; at < bytes.length; at++)
      if (!data.some(([s, e]) => at >= s && at < e) && (at % stride === 0 || at >= bytes.length - 22)) offsets.push({ at, what: 'ZIP' });
    const tampered = path.join(dir, `${database}-tampered.zip`);
    for (const { at, what } of offsets) {
      const copy = Buffer.from(bytes);
      copy[at] ^= 0x01;
      await writeFile(tampered, copy);
      const err = await verifyExport(tampered, { publicKey: key.publicKey }).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(err, `byte ${at} (${what})`).toBeInstanceOf(Error);
      expect(err?.name, `byte ${at} (${what}): ${err?.message}`).toBe('ExportBroken');
      if (what !== 'ZIP' && what !== 'manifest.json')
        expect(err?.message, `byte ${at}`).toContain(what === 'manifest.sig' ? 'manifest.sig' : what.slice(0, 40));
    }
  }, 120_000);

  it('refuses a manifest signed by another key', async () => {
    const other = auditKeyOf(generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    await expect(verifyExport(zipFile, { publicKey: other.publicKey })).rejects.toThrow(/manifest\.sig/);
  });

  it('writes zip64 records when asked, and they verify', async () => {
    const plan = await planExport({ db: w.db.prisma, store: w.store, chain: made.chain, period, key, location: 'x' });
    const zip = writeExport(plan, { forceZip64: true });
    const file = path.join(dir, `${database}-64.zip`);
    await pipeline(zip.stream, createWriteStream(file));
    expect((await readFile(file)).length).toBe(await zip.size);
    await expect(verifyExport(file, { publicKey: key.publicKey })).resolves.toMatchObject({ versions: made.files.length });
    if (has('unzip')) expect(execFileSync('unzip', ['-t', file]).toString()).toMatch(/No errors detected/);
  });
});
