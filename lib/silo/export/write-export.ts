// The export's ZIP, streamed: members stored uncompressed (method 0; zip64 where sizes or offsets
// need it), one member's bytes opened only when the ZIP reaches it and read only as fast as the
// reader takes them (yazl pipes each source into its output), so memory stays flat whatever the
// export's size and a stalled reader holds no more than the pipes' buffers. The size is known
// before the first byte (every member's size is in the plan): Content-Length.
import { createRequire } from 'node:module';
import path from 'node:path';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { ZipFile } from 'yazl';
import type { ExportMember, ExportPlan } from './plan-export';

export interface ExportZip {
  /** the ZIP's bytes */
  stream: Readable;
  /** its length, known before the first byte */
  size: Promise<number>;
  /** stops: the source being read is destroyed and no other is opened (the reader went away) */
  abort(): void;
}

/**
 * yazl takes each member's CRC-32 from buffer-crc32, in JavaScript: about a tenth of zlib's rate
 * (bench/RESULTS.md), which would bound the export. zlib's own (node:zlib crc32, the same
 * polynomial and continuation) is put in its place on the very module instance yazl requires
 * (yazl is a server external package, next.config.js, so Node loads both). Where that instance
 * cannot be found the export stays correct, only slower.
 */
function putZlibCrc32() {
  try {
    const fromRoot = createRequire(path.join(process.cwd(), 'package.json'));
    const crc = createRequire(fromRoot.resolve('yazl'))('buffer-crc32') as {
      unsigned: ((b: Buffer | string, prev?: number) => number) & { zlib?: true };
    };
    if (crc.unsigned.zlib) return;
    const unsigned = (b: Buffer | string, prev?: number) => zlib.crc32(b, prev ?? 0) >>> 0;
    crc.unsigned = Object.assign(unsigned, { zlib: true as const });
  } catch {}
}

const ZIP64_END_RECORDS = 56 + 20; // the ZIP64 end of central directory record and its locator
const END_RECORD = 22;
const CENTRAL_RECORD = 46;

/**
 * The size yazl (3.3.1) predicts, made what it writes: its prediction counts the ZIP64 end records
 * once the central directory reaches 64 KiB (calculateTotalSize: `centralDirectorySize >= 0xffff`),
 * but it writes them only from 4 GiB on (or 65,535 members, or the directory starting past 4 GiB),
 * so an export of a few hundred versions or more was announced 76 bytes longer than it was and
 * every client saw a truncated transfer (found by bench/million.ts on a seeded workspace). Below
 * 4 GiB no member needs a ZIP64 extra field, so the directory is its records' fixed part and names.
 */
function writtenSize(predicted: number, plan: ExportPlan, forced: boolean): number {
  if (forced || plan.members.length >= 0xffff) return predicted;
  const directory = plan.members.reduce((n, m) => n + CENTRAL_RECORD + Buffer.byteLength(m.name), 0);
  const directoryStart = predicted - directory - END_RECORD - ZIP64_END_RECORDS;
  return directory >= 0xffff && directory < 0xffffffff && directoryStart < 0xffffffff ? predicted - ZIP64_END_RECORDS : predicted;
}

/** At most this many sources are opened ahead of the one being read… */
export const AHEAD_SOURCES = 8;
/**
 * …and no more once those opened ahead hold this many bytes: reading them then takes longer than a
 * store's round trip (4 MiB is 13 ms at 300 MB/s), so small versions are opened several ahead and
 * large ones one ahead, and the sockets held open stay few.
 */
export const AHEAD_BYTES = 4 * 1024 * 1024;

/** The members to have open ahead of member `k` (indexes into `lazy`): the next ones, in order. */
export function readAhead(lazy: readonly { size: number }[], k: number): number[] {
  const out: number[] = [];
  let bytes = 0;
  for (let j = k + 1; j < lazy.length && out.length < AHEAD_SOURCES && bytes < AHEAD_BYTES; j++) {
    out.push(j);
    bytes += lazy[j].size;
  }
  return out;
}

export function writeExport(plan: ExportPlan, opts: { forceZip64?: boolean } = {}): ExportZip {
  putZlibCrc32();
  const zip = new ZipFile();
  const output = zip.outputStream as unknown as Readable;
  /** sources opened and not yet finished: the one being read, and those opened ahead */
  const open = new Set<Readable>();
  let aborted = false;
  // Sources are opened ahead of the one being read (readAhead): a store whose every read is a
  // request (S3) then has the next answers' first bytes waiting when the ZIP reaches them, instead
  // of a round trip per version. They are not read: only each stream's own buffer fills (tens of
  // KiB), whatever the reader does.
  const lazy = plan.members.filter((m) => !m.bytes && m.open);
  const ahead = new Map<number, Promise<Readable>>();
  const begin = (k: number) => {
    const opened = (lazy[k].open as NonNullable<ExportMember['open']>)().then(asReadable);
    opened.catch(() => {}); // its error is the ZIP's when the ZIP reaches it
    return opened;
  };
  const start = (k: number): Promise<Readable> => {
    const pending = ahead.get(k) ?? begin(k);
    ahead.delete(k);
    for (const j of readAhead(lazy, k)) if (!ahead.has(j)) ahead.set(j, begin(j));
    return pending;
  };
  const asReadable = (source: Readable | AsyncIterable<Buffer>) => {
    const r = source instanceof Readable ? source : Readable.from(source, { objectMode: false });
    open.add(r);
    r.once('close', () => open.delete(r));
    r.once('error', (err) => output.destroy(err));
    if (aborted) r.destroy();
    return r;
  };
  // The DOS time only (no extended timestamp field): every byte of the headers is then checked by
  // verify-export against another.
  const common = { compress: false, forceDosTimestamp: true, forceZip64Format: !!opts.forceZip64 };
  let k = 0;
  for (const m of plan.members) {
    if (m.bytes) zip.addBuffer(m.bytes, m.name, { ...common, mtime: m.mtime });
    else if (m.open) {
      const index = k++;
      zip.addReadStreamLazy(m.name, { ...common, mtime: m.mtime, size: m.size }, (cb) => {
        if (aborted) return cb(new Error('export aborted'), undefined as unknown as Readable);
        start(index).then(
          (r) => cb(null, r),
          (err) => cb(err, undefined as unknown as Readable),
        );
      });
    }
  }
  const size = new Promise<number>((resolve, reject) => {
    zip.once('error', reject);
    // @types/yazl declares the callback without its argument (the total size).
    const done = ((total: number) =>
      total < 0
        ? reject(new Error('the export size could not be computed'))
        : resolve(writtenSize(total, plan, !!opts.forceZip64))) as () => void;
    zip.end({ forceZip64Format: !!opts.forceZip64, comment: '' }, done);
  });
  // A source that fails (a blob gone, the store down) ends the ZIP with that error.
  zip.on('error', (err: Error) => output.destroy(err));
  return {
    stream: output,
    size,
    abort() {
      aborted = true;
      for (const r of open) r.destroy();
      output.destroy();
    },
  };
}
