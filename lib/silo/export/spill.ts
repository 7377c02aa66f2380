// The export plan's own files: what the plan reads once from the database and the ZIP needs again
// later (the tables' bytes, the list of versions) goes to a temporary file instead of memory, so an
// export of a year holds a page of rows at a time however many versions it has. A file is written
// in large appends, its size and SHA-256 counted on the way; read back as bytes or as lines.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { createInterface } from 'node:readline';

const FLUSH_AT = 256 * 1024;

export interface Spilled {
  path: string;
  size: number;
  sha256: string;
}

export class SpillFile {
  private readonly hash = createHash('sha256');
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private size = 0;

  private constructor(
    readonly path: string,
    private readonly fh: FileHandle,
  ) {}

  static async create(path: string): Promise<SpillFile> {
    return new SpillFile(path, await open(path, 'wx', 0o600));
  }

  async write(text: string | Buffer): Promise<void> {
    const b = typeof text === 'string' ? Buffer.from(text) : text;
    this.hash.update(b);
    this.size += b.length;
    this.pending.push(b);
    this.pendingBytes += b.length;
    if (this.pendingBytes >= FLUSH_AT) await this.flush();
  }

  private async flush() {
    if (!this.pendingBytes) return;
    const b = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    for (let at = 0; at < b.length; ) at += (await this.fh.write(b, at, b.length - at)).bytesWritten;
  }

  /** Writes what is pending and closes the file: its path, size and SHA-256. */
  async close(): Promise<Spilled> {
    try {
      await this.flush();
    } finally {
      await this.fh.close();
    }
    return { path: this.path, size: this.size, sha256: this.hash.digest('hex') };
  }

  /** Closes the file without caring what it holds (the plan failed). */
  async discard(): Promise<void> {
    await this.fh.close().catch(() => {});
  }
}

/** The file's lines, without their "\n", one at a time. */
export async function* spilledLines(path: string): AsyncIterable<string> {
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Number.POSITIVE_INFINITY });
  try {
    for await (const line of lines) if (line) yield line;
  } finally {
    lines.close();
  }
}
