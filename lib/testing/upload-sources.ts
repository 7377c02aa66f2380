// Upload sources for tests of the upload lease: a source that pauses mid-upload, and a takeover
// of a lease whose holder stalled.
import type { Db } from '../db/client';

/**
 * Runs `upload` as the taker of `fileId`'s lease, lapsed now as if its holder stalled: lapsed
 * again when the holder's renewal (every 2 s) slipped in between and the upload answered 409.
 */
export async function takeOver<T>(db: Db, fileId: string, upload: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    await db.$executeRaw`UPDATE upload_leases SET expires_at = now() - interval '1 second' WHERE file_id = ${fileId}::uuid`;
    const got = upload();
    const early = await Promise.race([
      got.then(
        () => undefined,
        (err) => err,
      ),
      new Promise((r) => setTimeout(r, 100)),
    ]);
    if (early && (early as { key?: string }).key === 'upload_in_progress' && attempt < 5) continue;
    return got;
  }
}

export async function readAll(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}

/** A source that sends `first`, then waits for `go()` before sending `rest`. */
export function paused(first: Buffer, rest: Buffer) {
  let go!: () => void;
  const gate = new Promise<void>((r) => (go = r));
  let started!: () => void;
  const sending = new Promise<void>((r) => (started = r));
  async function* source() {
    yield first;
    started();
    await gate;
    yield rest;
  }
  return { source: source(), go, sending };
}
