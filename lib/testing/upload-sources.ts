// Upload sources for tests of the upload lease: a source that pauses mid-upload, and a takeover
// of a lease whose holder stalled.
import { vi } from 'vitest';
import type { Db } from '../db/client';

/**
 * Runs `upload` as the taker of `fileId`'s lease, lapsed now as if its holder stalled: lapsed
 * again when the holder's renewal (every 2 s) slipped in between and the upload answered 409.
 * Returns once the upload holds the lease (a later generation than the stalled holder's) or ended.
 */
export async function takeOver<T>(db: Db, fileId: string, upload: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const [stalled] = await db.$queryRaw<{ generation: bigint }[]>`
      UPDATE upload_leases SET expires_at = now() - interval '1 second' WHERE file_id = ${fileId}::uuid RETURNING generation`;
    const got = upload();
    const ended = got.then(
      () => ({ err: undefined }),
      (err: unknown) => ({ err }),
    );
    let outcome: { err: unknown } | undefined;
    void ended.then((o) => (outcome = o));
    await vi.waitFor(
      async () => {
        if (outcome) return;
        const [now] = await db.$queryRaw<{ generation: bigint }[]>`SELECT generation FROM upload_leases WHERE file_id = ${fileId}::uuid`;
        if (!(now && now.generation > (stalled?.generation ?? -1n))) throw new Error(`the upload has not taken the lease of ${fileId}`);
      },
      { timeout: 10_000, interval: 10 },
    );
    if ((outcome?.err as { key?: string } | undefined)?.key === 'upload_in_progress' && attempt < 5) continue;
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
