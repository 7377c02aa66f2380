// The auditor's export through the domain code, on both databases (on S3: export-s3.test.ts; with
// time-stamps: export-timestamps.test.ts): a period's versions (small ones kept in the database,
// larger ones in the store, a replacement, awkward names) with the tables, the event log's records
// and checkpoints, index.xml valid against the GDPdU DTD, a ZIP `unzip -t` accepts, and
// verify-export saying OK — then naming the place after one byte of any kind of member, and of the
// ZIP's own records, is changed. Memory: a reader that stops reading opens no blob past those read
// ahead (eight small ones, or 4 MiB's worth), and an abort closes every one open. Small versions the
// database keeps are fetched 200 to a statement, and one it does not keep from the store straight.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditKeyOf } from '../../events/signing-key';
import type { BlobStore } from '../../storage/blob-store';
import type { ChunkPool } from '../../storage/chunk-pool';
import type { LocalDiskStore } from '../../storage/local-disk';
import { TEST_ACTOR } from '../../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../../testing/database';
import { SMALL_BLOB_LIMITS, parseFileInput as parse } from '../../testing/files';
import { createTestOwner } from '../../testing/owner';
import { createEntry } from '../create-entry';
import { createFile } from '../files/create-file';
import { parseCsv } from './csv';
import { exportTo, fillWorkspace, key, period, today } from './export-fixtures';
import { type ExportMember, planExport } from './plan-export';
import { verifyExport } from './verify-export';
import { AHEAD_BYTES, AHEAD_SOURCES, readAhead, writeExport } from './write-export';
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

  /**
   * A workspace of its own holding versions of these sizes, exported through a store that counts
   * what is opened and closed, read up to 100 KiB into the first version and then not at all.
   */
  async function stalledExport(name: string, sizes: number[]) {
    const opened: string[] = [];
    let closed = 0;
    // Every version through read(): without keptMany, the small ones are not fetched in batches;
    // the large ones through the wrapped store's pooled reads (readChunks) where it has them.
    const pooled = ((w.store as { inner?: BlobStore }).inner ?? w.store) as { readChunks?: LocalDiskStore['readChunks'] };
    const counted = (source: AsyncIterable<Buffer>): AsyncIterableIterator<Buffer> => {
      const it = source[Symbol.asyncIterator]();
      let ended = false;
      const end = () => {
        if (!ended) closed++;
        ended = true;
      };
      const wrapped: AsyncIterableIterator<Buffer> = {
        next: async () => {
          const r = await it.next();
          if (r.done) end();
          return r;
        },
        return: async () => {
          end();
          return (await it.return?.()) ?? { done: true, value: undefined };
        },
        [Symbol.asyncIterator]: () => wrapped,
      };
      return wrapped;
    };
    const counting: BlobStore = Object.assign(Object.create(w.store), {
      read: async (...args: Parameters<BlobStore['read']>) => {
        opened.push(args[0]);
        const s = await w.store.read(...args);
        s.once('close', () => closed++);
        return s;
      },
      keptMany: undefined,
      inner: pooled.readChunks && {
        readChunks: async (hash: string, pool: ChunkPool) => {
          opened.push(hash);
          return counted(await (pooled.readChunks as NonNullable<typeof pooled.readChunks>).call(pooled, hash, pool));
        },
      },
    });
    const owner = await createTestOwner(w.db.prisma, name);
    const chain = { ownerId: owner.id, sandbox: false };
    const entryId = (await createEntry({ actor: TEST_ACTOR, db: w.db.prisma, target: chain, input: { folder: '', name, meta: {} } })).entry
      .id;
    for (const [i, size] of sizes.entries()) {
      const input = parse({ name: `${i}.bin`, data: randomBytes(size).toString('base64') });
      await createFile({
        db: w.db.prisma,
        store: w.store,
        scope: { owners: [owner.id], sandbox: false },
        entryId,
        input,
        limits: SMALL_BLOB_LIMITS,
      });
    }
    const plan = await planExport({ db: w.db.prisma, store: counting, chain, period, key, location: 'x' });
    const zip = writeExport(plan);
    const members: ExportMember[] = [];
    for await (const m of plan.members()) members.push(m);
    // Take the small members and 100 KiB of the first version, then stop reading.
    const firstBlob = members.findIndex((m) => m.name.startsWith('files/'));
    const upTo = members.slice(0, firstBlob).reduce((n, m) => n + 30 + Buffer.byteLength(m.name) + m.size + 24, 0) + 100 * 1024;
    let taken = 0;
    await new Promise<void>((resolve) => {
      const take = (b: Buffer) => {
        taken += b.length;
        if (taken < upTo) return;
        zip.stream.pause();
        zip.stream.off('data', take);
        resolve();
      };
      zip.stream.on('data', take);
    });
    await new Promise((r) => setTimeout(r, 500));
    const versions = members.slice(firstBlob).map((m) => m.sha256);
    return { opened, closed: () => closed, zip, versions };
  }

  it('opens one large version ahead at most while the reader stops taking bytes, and an abort closes what is open', async () => {
    // Versions of 4 MiB, each in the store (more than the pipes between a source and the reader
    // hold: the store reads 1 MiB at a time): 4 MiB opened ahead is as far as it goes.
    const { opened, closed, zip, versions } = await stalledExport('Large', [4 << 20, 4 << 20, 4 << 20]);
    // the version being read, and the next opened ahead; never the third
    expect(opened).toEqual(versions.slice(0, 2));
    zip.abort();
    await new Promise((r) => setTimeout(r, 100));
    expect(closed()).toBe(2);
    expect(opened).toHaveLength(2);
  });

  it('opens up to eight small versions ahead (a round trip each on S3), never more, and an abort closes them all', async () => {
    // The first version large enough to be read from when the reader stops, then ten of 100 KiB
    // (kept in the database): eight of them are opened ahead, not the last two.
    const { opened, closed, zip, versions } = await stalledExport('Small', [4 << 20, ...Array(10).fill(100 * 1024)]);
    expect(opened).toEqual(versions.slice(0, 1 + AHEAD_SOURCES));
    zip.abort();
    await new Promise((r) => setTimeout(r, 100));
    expect(closed()).toBe(1 + AHEAD_SOURCES);
    expect(opened).toHaveLength(1 + AHEAD_SOURCES);
  });
  it('fetches the bytes of small versions kept in the database a batch at a time, one statement each', async () => {
    const owner = await createTestOwner(w.db.prisma, 'Batches');
    const chain = { ownerId: owner.id, sandbox: false };
    const scope = { owners: [owner.id], sandbox: false };
    const entryId = (await createEntry({ actor: TEST_ACTOR, db: w.db.prisma, target: chain, input: { folder: '', name: 'b', meta: {} } }))
      .entry.id;
    // 250 small versions (two batches of at most 200) and one in the store (read on its own)
    const big = randomBytes(300 * 1024);
    for (let i = 0; i < 250; i++) {
      const input = parse({ name: `${i}.xml`, data: Buffer.from(`<Invoice>${i}</Invoice>`).toString('base64') });
      await createFile({ db: w.db.prisma, store: w.store, scope, entryId, input, limits: SMALL_BLOB_LIMITS });
    }
    await createFile({
      db: w.db.prisma,
      store: w.store,
      scope,
      entryId,
      input: parse({ name: 'big.bin', data: big.toString('base64') }),
      limits: SMALL_BLOB_LIMITS,
    });
    const batches: number[] = [];
    const reads: string[] = [];
    const innerReads: string[] = [];
    const counting: BlobStore = Object.assign(Object.create(w.store), {
      read: (...args: Parameters<BlobStore['read']>) => {
        reads.push(args[0]);
        return w.store.read(...args);
      },
      inner: Object.assign(Object.create(w.store.inner), {
        read: (...args: Parameters<BlobStore['read']>) => {
          innerReads.push(args[0]);
          return w.store.inner.read(...args);
        },
      }),
      keptMany: (hashes: string[]) => {
        batches.push(hashes.length);
        return w.store.keptMany(hashes);
      },
    });
    const file = path.join(dir, `${database}-batches.zip`);
    const plan = await planExport({ db: w.db.prisma, store: counting, chain, period, key, location: 'x' });
    await pipeline(writeExport(plan).stream, createWriteStream(file));
    // The 300 KiB one is under the database's ceiling, so asked for in the second batch too; it is
    // the wrapped store's (over SMALL_BLOB_MAX_BYTES), so read from there on its own after, without
    // asking the database again.
    expect(batches).toEqual([200, 51]);
    expect(reads).toEqual([]);
    expect(innerReads).toEqual([createHash('sha256').update(big).digest('hex')]);
    await expect(verifyExport(file, { publicKey: key.publicKey })).resolves.toMatchObject({ versions: 251 });
  }, 120_000);
});

describe('readAhead', () => {
  const sized = (...sizes: number[]) => sizes.map((size) => ({ size }));
  it('opens the next members in order, up to eight, or until those opened hold 4 MiB', () => {
    expect(readAhead(sized(...Array(20).fill(10)), 3)).toEqual([4, 5, 6, 7, 8, 9, 10, 11]);
    expect(AHEAD_SOURCES).toBe(8);
    const mib = AHEAD_BYTES / 4;
    expect(readAhead(sized(1, mib, mib, mib, mib, mib), 0)).toEqual([1, 2, 3, 4]);
    expect(readAhead(sized(1, 5 * mib, 1, 1), 0)).toEqual([1]);
    expect(readAhead(sized(1, 1, 1), 1)).toEqual([2]);
    expect(readAhead(sized(1, 1, 1), 2)).toEqual([]);
  });
});
