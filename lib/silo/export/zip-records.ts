// The export ZIP's records, and where each one falls: local headers, data descriptors, central
// directory records and the end records of a ZIP whose members are stored (method 0), with zip64
// fields only where a size or an offset needs them (or when forced). One accounting (ZipLayout)
// serves both the size announced before the first byte and the offsets written, so the two cannot
// differ. zip-structure.ts holds an export to exactly these bytes. APPNOTE.TXT 6.3.10, 4.3-4.5.
// Written here, not by yazl: yazl keeps an object per member until its central directory (about
// 500 bytes each) and finds the next member to write by scanning from the first, so 100,000 small
// members took 61 s against 4.3 s here (docs/decisions/0018-export-plan-and-zip-writer.md).

const LOCAL_HEADER = 30;
const DATA_DESCRIPTOR = 16;
const ZIP64_DATA_DESCRIPTOR = 24;
const CENTRAL_RECORD = 46;
const ZIP64_EXTRA = 28;
const END_RECORD = 22;
const ZIP64_END_RECORDS = 56 + 20; // the zip64 end of central directory record and its locator

const VERSION_NEEDED = 20;
const VERSION_NEEDED_ZIP64 = 45;
const VERSION_MADE_BY = (3 << 8) | 63; // Unix, APPNOTE 6.3
const UTF8_NAME = 1 << 11;
export const STREAMED = 1 << 3; // crc-32 and sizes in a data descriptor after the data
const MODE = (0o100664 << 16) >>> 0; // a regular file, rw-rw-r--
export const MAX16 = 0xffff;
export const MAX32 = 0xffffffff;

/** What the layout needs of a member. */
export interface ZipEntry {
  /** its name's UTF-8 bytes */
  name: Buffer;
  size: number;
  /** its modification time as DOS keeps it (dosDateTime) */
  dos: DosTime;
  /** its crc-32 is known before its data (a small member): in the local header, no data descriptor */
  crc?: number;
}

/** A member's place in the ZIP. */
export interface Placed {
  /** where its local header starts */
  offset: number;
  zip64: boolean;
}

/**
 * Walks the members in order and says where each falls; `end()` gives the central directory's
 * place and the ZIP's total length. The writer and the size announced before it both walk it.
 */
export class ZipLayout {
  private cursor = 0;
  private directory = 0;
  private count = 0;
  constructor(private readonly forceZip64 = false) {}

  add(e: Pick<ZipEntry, 'name' | 'size' | 'crc'>): Placed {
    const offset = this.cursor;
    const zip64 = this.forceZip64 || e.size > MAX32 - 1 || offset > MAX32 - 1;
    this.cursor += LOCAL_HEADER + e.name.length + e.size + (e.crc === undefined ? (zip64 ? ZIP64_DATA_DESCRIPTOR : DATA_DESCRIPTOR) : 0);
    this.directory += CENTRAL_RECORD + e.name.length + (zip64 ? ZIP64_EXTRA : 0);
    this.count++;
    return { offset, zip64 };
  }

  end() {
    const directoryOffset = this.cursor;
    const zip64 = this.forceZip64 || this.count >= MAX16 || this.directory >= MAX32 || directoryOffset >= MAX32;
    return {
      count: this.count,
      directoryOffset,
      directorySize: this.directory,
      zip64,
      size: directoryOffset + this.directory + END_RECORD + (zip64 ? ZIP64_END_RECORDS : 0),
    };
  }
}

export interface DosTime {
  date: number;
  time: number;
}

/** The DOS date and time of `d` in the server's local time (as zip and unzip read them), clamped to 1980…2107. */
export function dosDateTime(d: Date): DosTime {
  const t = new Date(Math.min(Math.max(d.getTime(), new Date(1980, 0, 1).getTime()), new Date(2107, 11, 31, 23, 59, 58).getTime()));
  return {
    date: (t.getDate() & 0x1f) | (((t.getMonth() + 1) & 0xf) << 5) | (((t.getFullYear() - 1980) & 0x7f) << 9),
    time: Math.floor(t.getSeconds() / 2) | ((t.getMinutes() & 0x3f) << 5) | ((t.getHours() & 0x1f) << 11),
  };
}

const flagsOf = (e: ZipEntry) => UTF8_NAME | (e.crc === undefined ? STREAMED : 0);

export function localHeader(e: ZipEntry): Buffer {
  const b = Buffer.alloc(LOCAL_HEADER + e.name.length);
  const { date, time } = e.dos;
  const known = e.crc !== undefined;
  b.writeUInt32LE(0x04034b50, 0);
  b.writeUInt16LE(VERSION_NEEDED, 4);
  b.writeUInt16LE(flagsOf(e), 6);
  b.writeUInt16LE(0, 8); // stored
  b.writeUInt16LE(time, 10);
  b.writeUInt16LE(date, 12);
  b.writeUInt32LE(known ? (e.crc as number) : 0, 14);
  b.writeUInt32LE(known ? e.size : 0, 18);
  b.writeUInt32LE(known ? e.size : 0, 22);
  b.writeUInt16LE(e.name.length, 26);
  b.writeUInt16LE(0, 28);
  e.name.copy(b, LOCAL_HEADER);
  return b;
}

export function dataDescriptor(crc: number, size: number, zip64: boolean): Buffer {
  const b = Buffer.alloc(zip64 ? ZIP64_DATA_DESCRIPTOR : DATA_DESCRIPTOR);
  b.writeUInt32LE(0x08074b50, 0);
  b.writeUInt32LE(crc, 4);
  if (zip64) {
    b.writeBigUInt64LE(BigInt(size), 8);
    b.writeBigUInt64LE(BigInt(size), 16);
  } else {
    b.writeUInt32LE(size, 8);
    b.writeUInt32LE(size, 12);
  }
  return b;
}

export function centralRecord(e: ZipEntry, crc: number, at: Placed): Buffer {
  const b = Buffer.alloc(CENTRAL_RECORD + e.name.length + (at.zip64 ? ZIP64_EXTRA : 0));
  const { date, time } = e.dos;
  b.writeUInt32LE(0x02014b50, 0);
  b.writeUInt16LE(VERSION_MADE_BY, 4);
  b.writeUInt16LE(at.zip64 ? VERSION_NEEDED_ZIP64 : VERSION_NEEDED, 6);
  b.writeUInt16LE(flagsOf(e), 8);
  b.writeUInt16LE(0, 10);
  b.writeUInt16LE(time, 12);
  b.writeUInt16LE(date, 14);
  b.writeUInt32LE(crc, 16);
  b.writeUInt32LE(at.zip64 ? MAX32 : e.size, 20);
  b.writeUInt32LE(at.zip64 ? MAX32 : e.size, 24);
  b.writeUInt16LE(e.name.length, 28);
  b.writeUInt16LE(at.zip64 ? ZIP64_EXTRA : 0, 30);
  // comment length, disk, internal attributes: 0
  b.writeUInt32LE(MODE, 38);
  b.writeUInt32LE(at.zip64 ? MAX32 : at.offset, 42);
  e.name.copy(b, CENTRAL_RECORD);
  if (at.zip64) {
    const x = CENTRAL_RECORD + e.name.length;
    b.writeUInt16LE(1, x);
    b.writeUInt16LE(ZIP64_EXTRA - 4, x + 2);
    b.writeBigUInt64LE(BigInt(e.size), x + 4);
    b.writeBigUInt64LE(BigInt(e.size), x + 12);
    b.writeBigUInt64LE(BigInt(at.offset), x + 20);
  }
  return b;
}

/** The end records: zip64 ones first when the layout needs them, then the classic one (no comment). */
export function endRecords(end: ReturnType<ZipLayout['end']>): Buffer {
  const e = Buffer.alloc(END_RECORD);
  e.writeUInt32LE(0x06054b50, 0);
  e.writeUInt16LE(end.zip64 ? MAX16 : end.count, 8);
  e.writeUInt16LE(end.zip64 ? MAX16 : end.count, 10);
  e.writeUInt32LE(end.zip64 ? MAX32 : end.directorySize, 12);
  e.writeUInt32LE(end.zip64 ? MAX32 : end.directoryOffset, 16);
  if (!end.zip64) return e;
  const r = Buffer.alloc(ZIP64_END_RECORDS);
  r.writeUInt32LE(0x06064b50, 0);
  r.writeBigUInt64LE(44n, 4);
  r.writeUInt16LE(VERSION_MADE_BY, 12);
  r.writeUInt16LE(VERSION_NEEDED_ZIP64, 14);
  r.writeBigUInt64LE(BigInt(end.count), 24);
  r.writeBigUInt64LE(BigInt(end.count), 32);
  r.writeBigUInt64LE(BigInt(end.directorySize), 40);
  r.writeBigUInt64LE(BigInt(end.directoryOffset), 48);
  // the locator
  r.writeUInt32LE(0x07064b50, 56);
  r.writeBigUInt64LE(BigInt(end.directoryOffset + end.directorySize), 56 + 8);
  r.writeUInt32LE(1, 56 + 16);
  return Buffer.concat([r, e]);
}
