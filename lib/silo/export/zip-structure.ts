// Reads the ZIP of an export with yauzl and accounts for every byte. yauzl finds the end records
// and parses the central directory a record at a time; each record, each member's local header
// and data descriptor, and the end records are then held byte for byte to what writeExport writes
// for the values the central directory holds (zip-records.ts), each member's data hashed (sha256,
// crc-32); the members lie in order with no gap, the central directory right after them, nothing
// after the end record. The comparison, not yauzl, names most changed bytes: yauzl checks no
// crc-32, no data descriptor, no gap and no field it does not use (the versions, attributes, disk
// numbers, the end records' counts and sizes), and reads an export with any of those changed
// (zip-structure.test.ts). Memory does not grow with the archive: a record at a time, the central
// directory read a window at a time.
import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import zlib from 'node:zlib';
import yauzl from 'yauzl';
import { CHUNK } from '../../storage/batched-writer';
import { CENTRAL, DESCRIPTOR, differs, END, type Fields, LOCAL, LOCATOR, named, ZIP64_END, ZIP64_EXTRA } from './zip-fields';
import { centralRecord, dataDescriptor, endRecords, localHeader, MAX16, MAX32, STREAMED, type ZipEntry } from './zip-records';

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

const reason = (err: unknown) => (err instanceof Error ? err.message : String(err));

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
 * The ZIP's members one at a time, each checked (records, data hashed) when it is reached; nothing
 * is kept per member, so memory does not grow with the archive. Its caller names a member that
 * appears twice (verify-export.ts holds the members to manifest.json's list, in order).
 */
export async function* walkExportZip(file: string): AsyncIterable<ZipMember> {
  const fh = await open(file, 'r');
  try {
    const fileSize = (await fh.stat()).size;
    const end = await endOf(fh, fileSize);
    const directory = new Window(fh, fileSize);
    const zip = await yauzl
      .fromRandomAccessReaderPromise(new FileReader(directory), fileSize, {
        decodeStrings: false,
        validateEntrySizes: true,
        autoClose: false,
      })
      .catch((err) => Promise.reject(new ExportBroken(END_PLACE, reason(err))));
    try {
      yield* walk(zip, fh, directory, end);
    } finally {
      zip.close();
    }
  } finally {
    await fh.close();
  }
}

/**
 * yauzl's reads of the file, from the window the checks read the central directory from: one read
 * per 256 KiB of it rather than two a record, one file handle, and a read that cannot be made
 * fails (yauzl's own reader throws a RangeError past 2^53, where no caller can catch it).
 */
class FileReader extends yauzl.RandomAccessReader {
  constructor(private readonly window: Window) {
    super();
  }
  override read(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
    callback: (err: Error | null, bytesRead?: number) => void,
  ) {
    this.window.read(position, length).then(
      (b) => callback(null, b.copy(buffer, offset)),
      (err) => callback(err),
    );
  }
}

async function bytesAt(fh: FileHandle, at: number, length: number, place: string): Promise<Buffer> {
  const b = Buffer.alloc(length);
  const { bytesRead } = await fh.read(b, 0, length, at);
  if (bytesRead !== length) throw new ExportBroken(place, 'the file ends too soon');
  return b;
}

function same(place: string, fields: Fields, actual: Buffer, expected: Buffer, said?: string) {
  const why = differs(fields, actual, expected, said);
  if (why) throw new ExportBroken(place, why);
}

const END_PLACE = 'ZIP end of central directory';
const LOCATOR_PLACE = 'ZIP zip64 end of central directory locator';

interface End {
  fileSize: number;
  zip64: boolean;
  /** where the central directory starts, and its length, as the end records say */
  start: number;
  size: number;
}

/**
 * Where the central directory is, read from the end records as yauzl reads them and checked before
 * yauzl reads there, to name what is wrong: the end record ends the file, a zip64 locator names
 * the record just before it, and the central directory ends where the end records start. Their
 * every byte is held to the writer's at the end (checkEnd).
 */
async function endOf(fh: FileHandle, fileSize: number): Promise<End> {
  if (fileSize < 22) throw new ExportBroken(END_PLACE, 'the file is too short to be a ZIP');
  const signature = (await bytesAt(fh, fileSize - 22, 4, END_PLACE)).readUInt32LE(0);
  if (signature !== 0x06054b50)
    throw new ExportBroken(
      END_PLACE,
      `the signature is ${signature}, expected ${0x06054b50}: the file is cut short, or has bytes after its end`,
    );
  const zip64 = fileSize >= 98 && (await bytesAt(fh, fileSize - 42, 4, LOCATOR_PLACE)).readUInt32LE(0) === 0x07064b50;
  const records = zip64 ? 98 : 22;
  if (zip64) {
    const recordAt = Number((await bytesAt(fh, fileSize - 42 + 8, 8, LOCATOR_PLACE)).readBigUInt64LE(0));
    if (recordAt !== fileSize - records)
      throw new ExportBroken(LOCATOR_PLACE, `the zip64 record's offset is ${recordAt}, expected ${fileSize - records}`);
  }
  const b = await bytesAt(fh, fileSize - records, records, END_PLACE);
  const [size, start] = zip64 ? [Number(b.readBigUInt64LE(40)), Number(b.readBigUInt64LE(48))] : [b.readUInt32LE(12), b.readUInt32LE(16)];
  if (start + size !== fileSize - records)
    throw new ExportBroken(
      zip64 ? 'ZIP zip64 end of central directory record' : END_PLACE,
      `the central directory (${start} + ${size} bytes) does not end where the end records start (${fileSize - records})`,
    );
  return { fileSize, zip64, start, size };
}

async function* walk(zip: yauzl.ZipFile, fh: FileHandle, directory: Window, end: End): AsyncIterable<ZipMember> {
  let cursor = 0; // where the next member's local header is
  let at = end.start; // where the next central directory record is
  let index = 0;
  const entries = zip.eachEntry();
  for (;;) {
    const place = `ZIP central directory record ${index + 1}`;
    if (at >= end.start + end.size && index < zip.entryCount)
      throw new ExportBroken(END_PLACE, `it counts ${zip.entryCount} members, the central directory holds ${index}`);
    // yauzl may throw as it asks for the next record, or fail it
    const next = await Promise.resolve()
      .then(() => entries.next())
      .catch((err) => Promise.reject(new ExportBroken(place, reason(err))));
    if (next.done) break;
    const { name, offset, size, sha256, recordLength, memberLength } = await member(fh, directory, next.value, { index, at, cursor });
    at += recordLength;
    cursor += memberLength;
    yield { name, offset, size, sha256 };
    index++;
  }
  await checkEnd(fh, end, { count: index, directorySize: at - end.start });
  if (cursor !== end.start)
    throw new ExportBroken('ZIP central directory', `it is said to start at byte ${end.start}, but the members end at ${cursor}`);
}

/**
 * One member: its central directory record (at `at`) and its local header (at `cursor`) as the
 * writer writes them from the record's values, its data hashed, its data descriptor.
 */
async function member(fh: FileHandle, directory: Window, c: yauzl.Entry, o: { index: number; at: number; cursor: number }) {
  const nameBytes = c.fileNameRaw;
  const name = nameBytes.toString('utf8');
  const record = `ZIP central directory record ${o.index + 1} (${name})`;
  if (!Buffer.from(name, 'utf8').equals(nameBytes)) throw new ExportBroken(record, 'the name is not UTF-8');
  const e: ZipEntry = {
    name: nameBytes,
    size: c.uncompressedSize,
    dos: { date: c.lastModFileDate, time: c.lastModFileTime },
    crc: c.generalPurposeBitFlag & STREAMED ? undefined : c.crc32,
  };
  const zip64 = c.extraFieldLength !== 0;
  const recordLength = 46 + c.fileNameLength + c.extraFieldLength + c.fileCommentLength;
  const expected = centralRecord(e, c.crc32, { offset: c.relativeOffsetOfLocalHeader, zip64 });
  same(record, named(CENTRAL, 46, nameBytes.length, ZIP64_EXTRA), await directory.bytes(o.at, recordLength, record), expected);

  const place = `ZIP member ${o.index + 1} (${name})`;
  if (c.relativeOffsetOfLocalHeader !== o.cursor)
    throw new ExportBroken(
      place,
      `its local header is said to be at byte ${c.relativeOffsetOfLocalHeader}, but the previous member ends at ${o.cursor}`,
    );
  const lh = `${place}, local header`;
  const said = 'its central directory record says';
  same(lh, named(LOCAL, 30, nameBytes.length), await bytesAt(fh, o.cursor, 30 + nameBytes.length, lh), localHeader(e), said);
  const offset = o.cursor + 30 + nameBytes.length;
  const { sha256, crc } = await digest(fh, offset, c.uncompressedSize, place);
  if (crc !== c.crc32) throw new ExportBroken(place, `the data's crc-32 is ${crc}, the central directory says ${c.crc32}`);
  let memberLength = offset + c.uncompressedSize - o.cursor;
  if (e.crc === undefined) {
    const dd = `${place}, data descriptor`;
    const descriptor = dataDescriptor(c.crc32, c.uncompressedSize, zip64);
    same(dd, DESCRIPTOR(zip64), await bytesAt(fh, o.cursor + memberLength, descriptor.length, dd), descriptor, said);
    memberLength += descriptor.length;
  }
  return { name, offset, size: c.uncompressedSize, sha256, recordLength, memberLength };
}

/** `size` bytes at `at`, hashed a MiB at a time. */
async function digest(fh: FileHandle, at: number, size: number, place: string) {
  const hash = createHash('sha256');
  let crc = 0;
  const buf = Buffer.alloc(Math.min(size, CHUNK) || 1);
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

/** The end records (zip64 ones first when present) as writeExport writes them for this central directory. */
async function checkEnd(fh: FileHandle, end: End, directory: { count: number; directorySize: number }) {
  if (!end.zip64 && (directory.count >= MAX16 || directory.directorySize >= MAX32 || end.start >= MAX32))
    throw new ExportBroken(END_PLACE, 'zip64 values without the zip64 records');
  const expected = endRecords({ ...directory, directoryOffset: end.start, zip64: end.zip64, size: end.fileSize });
  const actual = await bytesAt(fh, end.fileSize - expected.length, expected.length, END_PLACE);
  if (end.zip64) {
    same('ZIP zip64 end of central directory record', ZIP64_END, actual.subarray(0, 56), expected.subarray(0, 56));
    same(LOCATOR_PLACE, LOCATOR, actual.subarray(56, 76), expected.subarray(56, 76));
  }
  same(END_PLACE, END, actual.subarray(-22), expected.subarray(-22));
}

/** The file's bytes WINDOW at a time: the central directory's records are read from the window that holds them. */
const WINDOW = 256 * 1024;
class Window {
  private buf: Buffer = Buffer.alloc(0);
  private start = 0;
  constructor(
    private readonly fh: FileHandle,
    /** where the file ends: no window reads past it */
    private readonly stop: number,
  ) {}
  /** `length` bytes at `at`, fewer where the file ends (valid until the next call) */
  async read(at: number, length: number): Promise<Buffer> {
    if (at < this.start || at + length > this.start + this.buf.length) {
      const b = Buffer.allocUnsafe(Math.max(0, Math.min(Math.max(length, WINDOW), this.stop - at)));
      this.buf = b.subarray(0, (await this.fh.read(b, 0, b.length, at)).bytesRead);
      this.start = at;
    }
    return this.buf.subarray(at - this.start, at - this.start + length);
  }
  /** `length` bytes at `at` (valid until the next call) */
  async bytes(at: number, length: number, place: string): Promise<Buffer> {
    const b = await this.read(at, length);
    if (b.length !== length) throw new ExportBroken(place, 'the file ends too soon');
    return b;
  }
}
