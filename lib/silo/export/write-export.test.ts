// The export's ZIP writer on its own (the whole export: export.test.ts): its Content-Length is the
// number of bytes it writes, with the central directory past 64 KiB, past 65,535 members (zip64
// end records) and with zip64 forced; it writes the bytes yazl writes for the same members (the
// writer is Silo's only for yazl's cost per member, zip-records.ts); what it writes reads back
// through zip-structure.ts and `unzip -t`; a source that gives fewer or more bytes than planned
// breaks the ZIP off instead of writing a wrong one; and manifest.json's text, written a member at
// a time, is exactly JSON.stringify's.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import { type ExportMember, type ExportPlan, manifestText } from './plan-export';
import { writeExport } from './write-export';
import { readExportZip } from './zip-structure';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function planOf(list: ExportMember[]): ExportPlan & { disposed: number } {
  const mtime = new Date('2020-01-01T00:00:00Z');
  return {
    chain: 'c',
    period: { from: '2020-01-01', to: '2020-12-31' },
    createdAt: mtime,
    versions: list.length,
    bytes: 0,
    events: { first: 1, last: 1 },
    manifestSha256: '',
    disposed: 0,
    async dispose() {
      this.disposed++;
    },
    async *members() {
      yield* list;
    },
  };
}

function membersOf(members: number, nameLength: number): ExportMember[] {
  const mtime = new Date('2020-01-01T00:00:00Z');
  return Array.from({ length: members }, (_, i): ExportMember => {
    const bytes = Buffer.from(`${i % 1000}`.padStart(3, '0'));
    const name = `files/${String(i).padStart(nameLength - 10, 'x')}/v1.xml`;
    // Half as buffers, half as streams, as the export has both.
    return i % 2
      ? { name, size: bytes.length, sha256: sha(bytes), mtime, bytes }
      : { name, size: bytes.length, sha256: sha(bytes), mtime, open: async () => Readable.from([bytes]) };
  });
}

async function written(zip: ReturnType<typeof writeExport>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of zip.stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** What yazl writes for the same members: stored, DOS times only, zip64 where needed or forced. */
async function yazlWrites(list: ExportMember[], forceZip64: boolean): Promise<Buffer> {
  const zip = new ZipFile();
  const common = { compress: false, forceDosTimestamp: true, forceZip64Format: forceZip64 };
  for (const m of list) {
    const open = m.open;
    if (m.bytes) zip.addBuffer(m.bytes, m.name, { ...common, mtime: m.mtime });
    else if (open)
      zip.addReadStreamLazy(m.name, { ...common, mtime: m.mtime, size: m.size }, (cb) => {
        open().then((s) => cb(null, Readable.from(s)));
      });
  }
  zip.end({ forceZip64Format: forceZip64, comment: '' });
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'silo-zip-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const hasUnzip = spawnSync('sh', ['-c', 'command -v unzip']).status === 0;

describe('the export ZIP', () => {
  for (const [members, nameLength, forceZip64] of [
    [10, 40, false],
    [600, 120, false], // a central directory of ~100 KiB
    [600, 120, true],
    [70_000, 30, false], // more members than the end record can count: zip64 end records
  ] as const)
    it(`is its announced length and reads back: ${members} members, names of ${nameLength} bytes${forceZip64 ? ', zip64 forced' : ''}`, async () => {
      const list = membersOf(members, nameLength);
      const plan = planOf(list);
      const zip = writeExport(plan, { forceZip64 });
      const size = await zip.size;
      const bytes = await written(zip);
      expect(bytes.length).toBe(size);
      expect(plan.disposed).toBe(1);
      // It ends with the end of central directory record (no comment), zip64 records before it when needed.
      expect(bytes.readUInt32LE(bytes.length - 22)).toBe(0x06054b50);
      expect(bytes.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]), bytes.length - 22 - 76)).toBe(forceZip64 || members >= 0xffff);
      const file = path.join(dir, `${members}-${forceZip64}.zip`);
      await writeFile(file, bytes);
      if (members < 1000) {
        // yazl finds each next member by scanning from the first (70,000 would take a minute), and
        // reading 70,000 back takes 10 s: the end records are checked instead
        expect(bytes.equals(await yazlWrites(list, forceZip64))).toBe(true);
        const read = await readExportZip(file);
        expect(read.map((m) => [m.name, m.sha256])).toEqual(list.map((m) => [m.name, m.sha256]));
      } else {
        // the zip64 end record counts every member, and its directory ends where the record starts
        const record = bytes.length - 22 - 76;
        expect(bytes.readBigUInt64LE(record + 32)).toBe(BigInt(members));
        expect(Number(bytes.readBigUInt64LE(record + 48) + bytes.readBigUInt64LE(record + 40))).toBe(record);
      }
      if (hasUnzip) expect(execFileSync('unzip', ['-t', file], { maxBuffer: 64 << 20 }).toString()).toMatch(/No errors detected/);
    }, 60_000);

  for (const [what, given] of [
    ['fewer', Buffer.from('ab')],
    ['more', Buffer.from('abcd')],
  ] as const)
    it(`breaks off when a source gives ${what} bytes than planned`, async () => {
      const mtime = new Date();
      const list: ExportMember[] = [
        { name: 'a.txt', size: 3, sha256: '', mtime, bytes: Buffer.from('abc') },
        { name: 'b.txt', size: 3, sha256: '', mtime, open: async () => Readable.from([given]) },
      ];
      const plan = planOf(list);
      const zip = writeExport(plan);
      await expect(written(zip)).rejects.toThrow(/export member b\.txt: its source gave \d bytes, 3 were planned/);
      expect(plan.disposed).toBe(1);
    });

  it('aborted before its first byte, opens nothing and lets the plan go', async () => {
    let opened = 0;
    const list: ExportMember[] = [
      {
        name: 'a',
        size: 1,
        sha256: '',
        mtime: new Date(),
        open: async () => {
          opened++;
          return Readable.from([Buffer.from('a')]);
        },
      },
    ];
    const plan = planOf(list);
    const zip = writeExport(plan);
    zip.abort();
    // the one thing writeExport starts by itself (the size, from the plan's members) has ended
    await zip.size;
    expect(opened).toBe(0);
    expect(plan.disposed).toBeGreaterThan(0);
  });
});

describe('the export ZIP’s sources opened ahead', () => {
  const MiB = 1024 * 1024;
  /** A source of `size` bytes in 64 KiB chunks, counting what was taken from it; failing after `failAt` bytes if given. */
  function counted(size: number, failAt?: number) {
    const c = { pulled: 0 };
    const source = async function* () {
      for (let sent = 0; sent < size; sent += 64 * 1024) {
        if (failAt !== undefined && sent >= failAt) throw new Error('the store went away');
        const chunk = Buffer.alloc(Math.min(64 * 1024, size - sent), 7);
        c.pulled += chunk.length;
        yield chunk;
      }
    };
    return { c, open: async () => Readable.from(source(), { objectMode: false }) };
  }

  it('breaks off with the error of a source opened ahead that fails, instead of waiting on it', async () => {
    const mtime = new Date();
    const list: ExportMember[] = [
      { name: 'b', size: 1 * MiB, sha256: '', mtime, open: counted(1 * MiB).open },
      { name: 'c', size: 4 * MiB, sha256: '', mtime, open: counted(4 * MiB, 1 * MiB).open },
    ];
    const plan = planOf(list);
    await expect(written(writeExport(plan))).rejects.toThrow(/the store went away/);
    expect(plan.disposed).toBe(1);
  });
});

describe('manifestText', () => {
  it('writes what JSON.stringify(…, null, 1) writes, a member at a time', async () => {
    const head = { format: 'silo-export/1', chain: 'x:live', period: { from: '2020-01-01', to: '2020-12-31' }, key_id: 'k "1"' };
    const named = [{ name: 'index.xml', sha256: 'a'.repeat(64), size: 10 }];
    const more = Array.from({ length: 3000 }, (_, i) => ({ name: `files/${i}/ü "q".xml`, sha256: 'b'.repeat(64), size: i }));
    async function* gen() {
      yield* more;
    }
    let text = '';
    for await (const t of manifestText(head, named, gen())) text += t;
    const files = Object.fromEntries([...named, ...more].map((m) => [m.name, { sha256: m.sha256, size: m.size }]));
    expect(text).toBe(`${JSON.stringify({ ...head, files }, null, 1)}\n`);
  });
});
