// The export's ZIP, streamed: members stored uncompressed (method 0; zip64 where sizes or offsets
// need it, zip-records.ts), each member's bytes opened only when the ZIP reaches it (or a few
// ahead, below) and read only as fast as the reader takes them: the ZIP is an async generator that
// yields each source's chunks as they come, so memory stays flat whatever the export's size and a
// stalled reader holds no more than the stream's buffers. The members are walked three times from
// the plan (its own files, not memory): for the size, announced before the first byte
// (Content-Length); for the data, keeping only each member's CRC-32 (4 bytes); and for the
// central directory.
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { CHUNK } from '../../storage/batched-writer';
import { ChunkPool } from '../../storage/chunk-pool';
import type { ExportMember, ExportPlan } from './plan-export';
import { centralRecord, dataDescriptor, dosDateTime, endRecords, localHeader, ZipLayout, type ZipEntry } from './zip-records';

/** What the ZIP needs of a plan (an export's, a backup's): its members, and to remove its files after. */
export type ZipPlan = Pick<ExportPlan, 'members' | 'dispose'>;

export interface ExportZip {
  /** the ZIP's bytes, as a stream (or `chunks`: one or the other, once) */
  readonly stream: Readable;
  /**
   * the ZIP's bytes, chunk by chunk; give each to `release` once it is written (the socket's write
   * callback): its buffer is then read into again (chunk-pool.ts)
   */
  chunks(): AsyncIterable<Buffer>;
  release(chunk: Buffer): void;
  /** its length, known before the first byte */
  size: Promise<number>;
  /** stops: the sources open are destroyed and no other is opened (the reader went away) */
  abort(): void;
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

const entryOf = (m: ExportMember, crc: number | undefined): ZipEntry => ({
  name: Buffer.from(m.name),
  size: m.size,
  dos: dosDateTime(m.mtime),
  crc: m.bytes ? crc : undefined,
});

/** The ZIP's length: its layout walked over the plan's members. */
async function zipSize(plan: ZipPlan, forceZip64: boolean): Promise<number> {
  const layout = new ZipLayout(forceZip64);
  for await (const m of plan.members()) layout.add({ name: Buffer.from(m.name), size: m.size, crc: m.bytes ? 0 : undefined });
  return layout.end().size;
}

/** CRC-32s by member index, 4 bytes each. */
class Crcs {
  private a = new Uint32Array(1024);
  set(i: number, crc: number) {
    if (i >= this.a.length) {
      const b = new Uint32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[i] = crc;
  }
  get(i: number) {
    return this.a[i];
  }
}

interface Queued {
  member: ExportMember;
  opened?: Promise<Readable>;
}

export function writeExport(plan: ZipPlan, opts: { forceZip64?: boolean } = {}): ExportZip {
  const forceZip64 = !!opts.forceZip64;
  const pool = new ChunkPool(CHUNK);
  /** sources opened and not yet finished: the one being read, and those opened ahead */
  const open = new Set<Readable>();
  let aborted = false;
  const close = () => {
    for (const r of open) r.destroy();
    open.clear();
  };

  const asReadable = (source: Readable | AsyncIterable<Buffer>) => {
    const r = source instanceof Readable ? source : Readable.from(source, { objectMode: false });
    open.add(r);
    r.once('close', () => open.delete(r));
    r.on('error', () => {}); // its error is the ZIP's when the ZIP reads it
    if (aborted) r.destroy();
    return r;
  };
  const begin = (m: ExportMember) => {
    const opened = (m.open as NonNullable<ExportMember['open']>)(pool).then(asReadable);
    opened.catch(() => {}); // its error is the ZIP's when the ZIP reaches it
    return opened;
  };

  /**
   * The members in order, each large one opened when the ZIP reaches it along with the next ones
   * (readAhead): a store whose every read is a request (S3) then has their first bytes waiting,
   * instead of a round trip per version. Those ahead are not read: only each stream's own buffer
   * fills (tens of KiB), whatever the reader does.
   */
  async function* queued(): AsyncIterable<Queued> {
    const it = plan.members()[Symbol.asyncIterator]();
    const queue: Queued[] = [];
    let ended = false;
    const lazyQueued = () => queue.filter((q) => !q.member.bytes);
    // Enough members queued that readAhead's limits, not the queue, decide what is opened.
    const fill = async () => {
      for (;;) {
        const lazy = lazyQueued();
        if (ended || lazy.length >= AHEAD_SOURCES || lazy.reduce((n, q) => n + q.member.size, 0) >= AHEAD_BYTES) return;
        const next = await it.next();
        if (next.done) ended = true;
        else queue.push({ member: next.value });
      }
    };
    try {
      for (;;) {
        if (!queue.length) await fill();
        const current = queue.shift();
        if (!current) return;
        if (!current.member.bytes) {
          current.opened ??= begin(current.member);
          await fill();
          const lazy = lazyQueued();
          for (const j of readAhead([current.member, ...lazy.map((q) => q.member)], 0)) lazy[j - 1].opened ??= begin(lazy[j - 1].member);
        }
        yield current;
      }
    } finally {
      await it.return?.();
    }
  }

  async function* zip(): AsyncIterable<Buffer> {
    const layout = new ZipLayout(forceZip64);
    const crcs = new Crcs();
    let count = 0;
    try {
      for await (const { member: m, opened } of queued()) {
        if (aborted) throw new Error('export aborted');
        const crc = m.bytes ? zlib.crc32(m.bytes) >>> 0 : undefined;
        const entry = entryOf(m, crc);
        const at = layout.add(entry);
        yield localHeader(entry);
        if (m.bytes) {
          yield m.bytes;
          crcs.set(count++, crc as number);
          continue;
        }
        const source = await (opened as Promise<Readable>);
        if (source.errored) throw source.errored;
        let sum = 0;
        let n = 0;
        for await (const chunk of source as AsyncIterable<Buffer>) {
          sum = zlib.crc32(chunk, sum);
          n += chunk.length;
          if (n > m.size) break;
          yield chunk;
        }
        if (n !== m.size) throw new Error(`export member ${m.name}: its source gave ${n} bytes, ${m.size} were planned`);
        yield dataDescriptor(sum >>> 0, n, at.zip64);
        crcs.set(count++, sum >>> 0);
      }
      // The central directory: the members walked again, with the CRC-32s kept.
      const again = new ZipLayout(forceZip64);
      let i = 0;
      let batch: Buffer[] = [];
      let batchBytes = 0;
      for await (const m of plan.members()) {
        if (i >= count) throw new Error('the export plan gave more members the second time');
        const entry = entryOf(m, crcs.get(i));
        const record = centralRecord(entry, crcs.get(i++), again.add(entry));
        batch.push(record);
        batchBytes += record.length;
        if (batchBytes >= 64 * 1024) {
          yield Buffer.concat(batch, batchBytes);
          batch = [];
          batchBytes = 0;
        }
      }
      if (i !== count) throw new Error('the export plan gave fewer members the second time');
      if (batchBytes) yield Buffer.concat(batch, batchBytes);
      yield endRecords(layout.end());
    } finally {
      close();
      await plan.dispose();
    }
  }

  let stream: Readable | undefined;
  let started = false;
  const once = () => {
    if (started) throw new Error("the export's bytes are read once");
    started = true;
    return zip();
  };
  const size = zipSize(plan, forceZip64);
  size.catch(() => {});
  return {
    get stream() {
      stream ??= Readable.from(once(), { objectMode: false });
      return stream;
    },
    chunks: once,
    release: (chunk) => pool.release(chunk),
    size,
    abort() {
      aborted = true;
      close();
      stream?.destroy();
      // The generator's own cleanup runs only once it has started; the plan's files go either way.
      void plan.dispose();
    },
  };
}
