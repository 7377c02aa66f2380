// The directories blobs are renamed into (<root>/sha256/ab/), kept durable: a directory made is
// fsync'd into its parents, and a rename into one is made durable by an fsync of it sent after
// the rename. Renames that arrive together share one fsync (coalesced), so small blobs placed at
// once pay for one directory sync between them, not one each.
import type * as fsp from 'node:fs/promises';
import { coalesced } from '../coalesced';

type Io = Pick<typeof fsp, 'open' | 'mkdir'>;

export class BlobDirs {
  /** directories this store made or saw, so placing a blob need not make them again */
  private readonly known = new Set<string>();
  private readonly syncs = new Map<string, () => Promise<void>>();

  /** `parents`: the directories above a blob's directory, up to the store's root, nearest first. */
  constructor(
    private readonly io: Io,
    private readonly parents: string[],
  ) {}

  /** Makes `dir` (and fsyncs its parents) unless it is known to exist; `again`: it went away, look anew. */
  async ensure(dir: string, again = false): Promise<void> {
    if (again) this.known.delete(dir);
    if (this.known.has(dir)) return;
    if (await this.io.mkdir(dir, { recursive: true })) for (const p of this.parents) await fsyncDir(this.io, p);
    this.known.add(dir);
  }

  /** An fsync of `dir` sent after this call: what makes a rename into it durable. */
  sync(dir: string): Promise<void> {
    let sync = this.syncs.get(dir);
    if (!sync) {
      sync = coalesced(() => fsyncDir(this.io, dir));
      this.syncs.set(dir, sync);
    }
    return sync();
  }
}

export async function fsyncDir(io: Pick<Io, 'open'>, dir: string) {
  const fh = await io.open(dir, 'r').catch(() => undefined);
  if (!fh) return;
  await fh.sync().catch(() => {});
  await fh.close().catch(() => {});
}
