// The export ZIP's reader (zip-structure.ts) on small exports, with and without zip64 records: one
// byte changed anywhere outside the members' data, the file cut short or grown, is refused and
// named; and the checks kept beside yauzl are needed: yauzl itself reads a ZIP whose disk number,
// attributes, data descriptor or end record counts were changed, and a zip64 locator pointing past
// 2^53 made its own file reader throw where no caller could catch it. (The whole export:
// export.test.ts.)
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import type { ExportMember, ExportPlan } from './plan-export';
import { writeExport } from './write-export';
import { readExportZip } from './zip-structure';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Three members (two streamed: with a data descriptor; one with its crc-32 in its local header). */
async function smallZip(forceZip64: boolean): Promise<Buffer> {
  const mtime = new Date('2020-03-01T10:00:00Z');
  const list: ExportMember[] = [0, 1, 2].map((i) => {
    const bytes = Buffer.from(`member ${i}`);
    const name = `files/${i}/ä${i}.txt`;
    const m = { name, size: bytes.length, sha256: sha(bytes), mtime };
    return i % 2 ? { ...m, bytes } : { ...m, open: async () => Readable.from([bytes]) };
  });
  const plan = {
    async *members() {
      yield* list;
    },
    async dispose() {},
  } as unknown as ExportPlan;
  const chunks: Buffer[] = [];
  for await (const c of writeExport(plan, { forceZip64 }).stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'silo-zip-structure-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function refusal(name: string, bytes: Buffer): Promise<Error | undefined> {
  const file = path.join(dir, name);
  await writeFile(file, bytes);
  return readExportZip(file).then(
    () => undefined,
    (err: Error) => err,
  );
}

/** What yauzl alone says of the file: every entry and its data read, or its error. */
async function yauzlReads(bytes: Buffer): Promise<string> {
  try {
    const zip = await yauzl.fromBufferPromise(bytes);
    for await (const entry of zip.eachEntry()) for await (const _ of await zip.openReadStreamPromise(entry));
    return 'read';
  } catch (err) {
    return (err as Error).message;
  }
}

describe.each([false, true])('the export ZIP’s reader (zip64 records: %s)', (zip64) => {
  let bytes: Buffer;
  let data: [number, number][];
  beforeAll(async () => {
    bytes = await smallZip(zip64);
    const file = path.join(dir, `${zip64}.zip`);
    await writeFile(file, bytes);
    data = (await readExportZip(file)).map((m) => [m.offset, m.offset + m.size]);
  });

  it('names the place of every byte outside the data changed', async () => {
    let checked = 0;
    for (let at = 0; at < bytes.length; at++) {
      if (data.some(([s, e]) => at >= s && at < e)) continue;
      const copy = Buffer.from(bytes);
      copy[at] ^= 0x01;
      const err = await refusal(`${zip64}-flip.zip`, copy);
      expect(err?.name, `byte ${at}: ${err?.message}`).toBe('ExportBroken');
      expect(err?.message, `byte ${at}`).toMatch(
        /^ZIP (member \d+|central directory|end of central directory|zip64 end of central directory)/,
      );
      checked++;
    }
    expect(checked).toBeGreaterThan(300);
  }, 60_000);

  it('refuses the file cut short, or with a byte before or after it', async () => {
    for (let n = 0; n < bytes.length; n += 5)
      expect((await refusal(`${zip64}-cut.zip`, bytes.subarray(0, n)))?.name, `cut to ${n}`).toBe('ExportBroken');
    expect((await refusal(`${zip64}-after.zip`, Buffer.concat([bytes, Buffer.from([0])])))?.message).toMatch(
      /end of central directory: .*cut short, or has bytes after its end/,
    );
    expect((await refusal(`${zip64}-before.zip`, Buffer.concat([Buffer.from([0]), bytes])))?.name).toBe('ExportBroken');
  });
});

describe('the checks kept beside yauzl', () => {
  it('name what yauzl reads without a word', async () => {
    const bytes = await smallZip(false);
    const central = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    const end = bytes.length - 22;
    const firstDescriptor = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x07, 0x08]));
    for (const [what, at, named] of [
      ['a central directory record’s disk', central + 34, /record 1 \(files\/0\/ä0\.txt\): the disk is 1, expected 0/],
      ['its version made by', central + 4, /record 1 .*: version made by is 830, expected 831/],
      ['its external attributes', central + 40, /record 1 .*: the external attributes/],
      ['a local header’s time', 10, /member 1 .*, local header: the time is \d+, its central directory record says \d+/],
      ['a data descriptor’s crc-32', firstDescriptor + 4, /member 1 .*, data descriptor: the crc-32/],
      ['the end record’s entries on this disk', end + 8, /end of central directory: the entries on this disk is 2, expected 3/],
    ] as const) {
      const copy = Buffer.from(bytes);
      copy[at] ^= 0x01;
      expect(await yauzlReads(copy), what).toBe('read');
      expect((await refusal('kept.zip', copy))?.message, what).toMatch(named);
    }
  });

  it('name a zip64 locator pointing past 2^53, and do not end the process', async () => {
    const bytes = await smallZip(true);
    const copy = Buffer.from(bytes);
    copy.writeBigUInt64LE(1n << 60n, bytes.length - 42 + 8);
    expect((await refusal('locator.zip', copy))?.message).toMatch(/zip64 end of central directory locator: the zip64 record's offset is/);
  });

  it('read back what the writer writes', async () => {
    const file = path.join(dir, 'whole.zip');
    await writeFile(file, await smallZip(true));
    expect((await readExportZip(file)).map((m) => m.name)).toEqual(['files/0/ä0.txt', 'files/1/ä1.txt', 'files/2/ä2.txt']);
    expect(await yauzlReads(await readFile(file))).toBe('read');
  });
});
