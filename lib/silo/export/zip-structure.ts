// Reads the ZIP of an export as writeExport makes it and accounts for every byte: local header,
// data (hashed) and data descriptor of each member in order with no gap, then the central
// directory, the zip64 end records when present, and the end record, and nothing after it. Each
// header field is checked against the other copy of it (local header, data descriptor, central
// directory) or against the one value writeExport writes, so one byte changed anywhere in the
// file is named. Positional reads: memory does not grow with the archive.
import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import zlib from 'node:zlib';

export class ExportBroken extends Error {
  override readonly name = 'ExportBroken';
  constructor(
    readonly place: string,
    reason: string,
  ) {
    super(`${place}: ${reason}`);
  }
}

export interface ZipMember {
  name: string;
  /** where its bytes start in the file */
  offset: number;
  size: number;
  sha256: string;
}

const VERSION_MADE_BY = (3 << 8) | 63;
const UTF8_NAME = 1 << 11;
const DATA_DESCRIPTOR = 1 << 3;
const MODE = (0o100664 << 16) >>> 0;
const MAX16 = 0xffff;
const MAX32 = 0xffffffff;

interface CentralRecord {
  index: number;
  name: string;
  nameBytes: Buffer;
  flags: number;
  time: number;
  date: number;
  crc: number;
  size: number;
  offset: number;
  zip64: boolean;
}

const u64 = (b: Buffer, at: number) => Number(b.readBigUInt64LE(at));

/** Every member of the ZIP, in order (walkExportZip's), the same name twice refused. */
export async function readExportZip(file: string): Promise<ZipMember[]> {
  const members: ZipMember[] = [];
  const names = new Set<string>();
  for await (const m of walkExportZip(file)) {
    if (names.has(m.name)) throw new ExportBroken(`ZIP member ${members.length + 1} (${m.name})`, 'the name appears twice');
    names.add(m.name);
    members.push(m);
  }
  return members;
}

/**
 * The ZIP's members one at a time, each checked (headers, data hashed) when it is reached: the
 * central directory is read a window at a time and nothing is kept per member, so memory does not
 * grow with the archive. Its caller names a member that appears twice (verify-export.ts holds the
 * members to manifest.json's list, in order).
 */
export async function* walkExportZip(file: string): AsyncIterable<ZipMember> {
  const fh = await open(file, 'r');
  try {
    yield* walk(fh, (await fh.stat()).size);
  } finally {
    await fh.close();
  }
}

async function bytesAt(fh: FileHandle, at: number, length: number, place: string): Promise<Buffer> {
  const b = Buffer.alloc(length);
  const { bytesRead } = await fh.read(b, 0, length, at);
  if (bytesRead !== length) throw new ExportBroken(place, 'the file ends too soon');
  return b;
}

function expectField(place: string, what: string, actual: number, expected: number | number[]) {
  const ok = Array.isArray(expected) ? expected.includes(actual) : actual === expected;
  if (!ok) throw new ExportBroken(place, `${what} is ${actual}, expected ${Array.isArray(expected) ? expected.join(' or ') : expected}`);
}

async function* walk(fh: FileHandle, fileSize: number): AsyncIterable<ZipMember> {
  const end = await endRecords(fh, fileSize);
  let cursor = 0;
  for await (const c of centralDirectory(fh, end)) {
    const place = `ZIP member ${c.index + 1} (${c.name})`;
    if (c.offset !== cursor)
      throw new ExportBroken(place, `its local header is said to be at byte ${c.offset}, but the previous member ends at ${cursor}`);
    const h = await bytesAt(fh, cursor, 30, `${place}, local header`);
    const lh = `${place}, local header`;
    expectField(lh, 'the signature', h.readUInt32LE(0), 0x04034b50);
    expectField(lh, 'version needed', h.readUInt16LE(4), 20);
    expectField(lh, 'the flags', h.readUInt16LE(6), c.flags);
    expectField(lh, 'the method', h.readUInt16LE(8), 0);
    expectField(lh, 'the time (central directory: the other copy)', h.readUInt16LE(10), c.time);
    expectField(lh, 'the date (central directory: the other copy)', h.readUInt16LE(12), c.date);
    const streamed = (c.flags & DATA_DESCRIPTOR) !== 0;
    expectField(lh, 'the crc-32', h.readUInt32LE(14), streamed ? 0 : c.crc);
    expectField(lh, 'the compressed size', h.readUInt32LE(18), streamed ? 0 : c.size);
    expectField(lh, 'the size', h.readUInt32LE(22), streamed ? 0 : c.size);
    expectField(lh, 'the name length', h.readUInt16LE(26), c.nameBytes.length);
    expectField(lh, 'the extra field length', h.readUInt16LE(28), 0);
    const name = await bytesAt(fh, cursor + 30, c.nameBytes.length, lh);
    if (!name.equals(c.nameBytes))
      throw new ExportBroken(lh, `the name is "${name.toString('utf8')}", the central directory says "${c.name}"`);
    const offset = cursor + 30 + name.length;
    const { sha256, crc } = await digest(fh, offset, c.size, place);
    if (crc !== c.crc) throw new ExportBroken(place, `the data's crc-32 is ${crc}, the central directory says ${c.crc}`);
    cursor = offset + c.size;
    if (streamed) {
      const dd = `${place}, data descriptor`;
      const d = await bytesAt(fh, cursor, c.zip64 ? 24 : 16, dd);
      expectField(dd, 'the signature', d.readUInt32LE(0), 0x08074b50);
      expectField(dd, 'the crc-32', d.readUInt32LE(4), c.crc);
      expectField(dd, 'the compressed size', c.zip64 ? u64(d, 8) : d.readUInt32LE(8), c.size);
      expectField(dd, 'the size', c.zip64 ? u64(d, 16) : d.readUInt32LE(12), c.size);
      cursor += d.length;
    }
    yield { name: c.name, offset, size: c.size, sha256 };
  }
  if (cursor !== end.cdOffset)
    throw new ExportBroken('ZIP central directory', `it is said to start at byte ${end.cdOffset}, but the members end at ${cursor}`);
}

async function digest(fh: FileHandle, at: number, size: number, place: string) {
  const hash = createHash('sha256');
  let crc = 0;
  const buf = Buffer.alloc(Math.min(size, 1 << 20) || 1);
  for (let done = 0; done < size; ) {
    const n = Math.min(buf.length, size - done);
    const { bytesRead } = await fh.read(buf, 0, n, at + done);
    if (bytesRead !== n) throw new ExportBroken(place, 'the file ends inside its data');
    const chunk = buf.subarray(0, n);
    hash.update(chunk);
    crc = zlib.crc32(chunk, crc);
    done += n;
  }
  return { sha256: hash.digest('hex'), crc };
}

interface EndRecords {
  entries: number;
  cdSize: number;
  cdOffset: number;
}

/** The end of central directory record (no comment), and the zip64 ones before it when present. */
async function endRecords(fh: FileHandle, fileSize: number): Promise<EndRecords> {
  const place = 'ZIP end of central directory';
  if (fileSize < 22) throw new ExportBroken(place, 'the file is too short to be a ZIP');
  const e = await bytesAt(fh, fileSize - 22, 22, place);
  expectField(place, 'the signature', e.readUInt32LE(0), 0x06054b50);
  expectField(place, 'the disk number', e.readUInt16LE(4), 0);
  expectField(place, "the central directory's disk", e.readUInt16LE(6), 0);
  expectField(place, 'the comment length', e.readUInt16LE(20), 0);
  const entries = e.readUInt16LE(10);
  expectField(place, 'the entries on this disk', e.readUInt16LE(8), entries);
  const cdSize = e.readUInt32LE(12);
  const cdOffset = e.readUInt32LE(16);
  const locatorAt = fileSize - 22 - 20;
  const locator = locatorAt >= 0 ? await bytesAt(fh, locatorAt, 20, place) : undefined;
  if (locator?.readUInt32LE(0) !== 0x07064b50) {
    if (entries === MAX16 || cdSize === MAX32 || cdOffset === MAX32)
      throw new ExportBroken(place, 'zip64 values without the zip64 records');
    if (cdOffset + cdSize !== fileSize - 22)
      throw new ExportBroken(
        place,
        `the central directory (${cdOffset} + ${cdSize} bytes) does not end where this record starts (${fileSize - 22})`,
      );
    return { entries, cdSize, cdOffset };
  }
  const lp = 'ZIP zip64 end of central directory locator';
  expectField(lp, "the record's disk", locator.readUInt32LE(4), 0);
  expectField(lp, 'the disk count', locator.readUInt32LE(16), 1);
  const recordAt = locatorAt - 56;
  expectField(lp, "the zip64 record's offset", u64(locator, 8), recordAt);
  const rp = 'ZIP zip64 end of central directory record';
  const r = await bytesAt(fh, recordAt, 56, rp);
  expectField(rp, 'the signature', r.readUInt32LE(0), 0x06064b50);
  expectField(rp, 'the record size', u64(r, 4), 44);
  expectField(rp, 'version made by', r.readUInt16LE(12), VERSION_MADE_BY);
  expectField(rp, 'version needed', r.readUInt16LE(14), 45);
  expectField(rp, 'the disk number', r.readUInt32LE(16), 0);
  expectField(rp, "the central directory's disk", r.readUInt32LE(20), 0);
  const entries64 = u64(r, 32);
  expectField(rp, 'the entries on this disk', u64(r, 24), entries64);
  const size64 = u64(r, 40);
  const offset64 = u64(r, 48);
  expectField(place, 'the entries', entries, [entries64, MAX16]);
  expectField(place, "the central directory's size", cdSize, [size64, MAX32]);
  expectField(place, "the central directory's offset", cdOffset, [offset64, MAX32]);
  if (offset64 + size64 !== recordAt)
    throw new ExportBroken(rp, `the central directory (${offset64} + ${size64} bytes) does not end where this record starts (${recordAt})`);
  return { entries: entries64, cdSize: size64, cdOffset: offset64 };
}

/** The central directory's records in order, read WINDOW bytes at a time. */
async function* centralDirectory(fh: FileHandle, end: EndRecords): AsyncIterable<CentralRecord> {
  let at = end.cdOffset;
  const stop = end.cdOffset + end.cdSize;
  const window = new Window(fh, stop);
  let index = 0;
  for (; at < stop; index++) {
    const place = `ZIP central directory record ${index + 1}`;
    const h = await window.bytes(at, 46, place);
    expectField(place, 'the signature', h.readUInt32LE(0), 0x02014b50);
    expectField(place, 'version made by', h.readUInt16LE(4), VERSION_MADE_BY);
    const flags = h.readUInt16LE(8);
    expectField(place, 'the flags', flags, [UTF8_NAME, UTF8_NAME | DATA_DESCRIPTOR]);
    expectField(place, 'the method', h.readUInt16LE(10), 0);
    const nameLength = h.readUInt16LE(28);
    const extraLength = h.readUInt16LE(30);
    expectField(place, 'the comment length', h.readUInt16LE(32), 0);
    expectField(place, 'the disk', h.readUInt16LE(34), 0);
    expectField(place, 'the internal attributes', h.readUInt16LE(36), 0);
    expectField(place, 'the external attributes', h.readUInt32LE(38), MODE);
    const nameBytes = Buffer.from(await window.bytes(at + 46, nameLength, place));
    const name = nameBytes.toString('utf8');
    const named = `${place} (${name})`;
    if (!Buffer.from(name, 'utf8').equals(nameBytes)) throw new ExportBroken(named, 'the name is not UTF-8');
    let size = h.readUInt32LE(24);
    let offset = h.readUInt32LE(42);
    const zip64 = extraLength !== 0;
    expectField(named, 'version needed', h.readUInt16LE(6), zip64 ? 45 : 20);
    if (zip64) {
      expectField(named, 'the extra field length', extraLength, 28);
      const x = await window.bytes(at + 46 + nameLength, 28, named);
      expectField(named, 'the zip64 field tag', x.readUInt16LE(0), 1);
      expectField(named, 'the zip64 field size', x.readUInt16LE(2), 24);
      for (const [what, v] of [
        ['the compressed size', h.readUInt32LE(20)],
        ['the size', size],
        ['the local header offset', offset],
      ] as const)
        expectField(named, what, v, MAX32);
      size = u64(x, 4);
      expectField(named, 'the zip64 compressed size', u64(x, 12), size);
      offset = u64(x, 20);
    } else expectField(named, 'the compressed size', h.readUInt32LE(20), size);
    yield {
      index,
      name,
      nameBytes,
      flags,
      time: h.readUInt16LE(12),
      date: h.readUInt16LE(14),
      crc: h.readUInt32LE(16),
      size,
      offset,
      zip64,
    };
    at += 46 + nameLength + extraLength;
  }
  if (at !== stop) throw new ExportBroken('ZIP central directory', `its records end at byte ${at}, not at ${stop}`);
  if (index !== end.entries)
    throw new ExportBroken('ZIP end of central directory', `it counts ${end.entries} members, the central directory holds ${index}`);
}

/** The central directory's bytes, WINDOW at a time: a record is read from the window that holds it. */
const WINDOW = 256 * 1024;
class Window {
  private buf: Buffer = Buffer.alloc(0);
  private start = 0;
  constructor(
    private readonly fh: FileHandle,
    /** where the central directory ends: no window reads past it unless a record asks */
    private readonly stop: number,
  ) {}
  /** `length` bytes at `at` (valid until the next call) */
  async bytes(at: number, length: number, place: string): Promise<Buffer> {
    if (at < this.start || at + length > this.start + this.buf.length) {
      this.buf = await bytesAt(this.fh, at, Math.max(length, Math.min(WINDOW, this.stop - at)), place);
      this.start = at;
    }
    return this.buf.subarray(at - this.start, at - this.start + length);
  }
}
