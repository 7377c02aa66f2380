// An upload's body as an async iterable that gives up when no byte arrives for the idle timeout
// (UPLOAD_IDLE_TIMEOUT_SECONDS): a client that stalls, or never sends its body, must not hold the
// upload's lease and a socket for ever. Only time spent waiting for the network counts: while the
// server is busy writing, the clock does not run.
import type { Readable } from 'node:stream';
import { ApiError } from '../errors';

const uploadIdle = (idleMs: number) =>
  new ApiError(
    'upload_idle',
    `No byte arrived for ${idleMs / 1000} s: the upload ended; its bytes are held, resume with HEAD and Content-Range`,
  );

export async function* idleGuarded(body: Readable, idleMs: number): AsyncGenerator<Buffer> {
  for (;;) {
    for (let chunk: Buffer | null = body.read(); chunk !== null; chunk = body.read()) yield chunk;
    if (body.readableEnded) return;
    await nextArrival(body, idleMs);
  }
}

/** Resolves when bytes or the end arrive; rejects when the body fails, closes early, or stays silent for idleMs. */
function nextArrival(body: Readable, idleMs: number): Promise<void> {
  if (body.errored) return Promise.reject(body.errored);
  if (body.destroyed) return Promise.reject(aborted());
  return new Promise((resolve, reject) => {
    const done = (err?: Error) => {
      clearTimeout(timer);
      body.off('readable', onReady).off('end', onReady).off('error', done).off('close', onClose);
      if (err) reject(err);
      else resolve();
    };
    const onReady = () => done();
    const onClose = () => done(body.readableEnded ? undefined : (body.errored ?? aborted()));
    const timer = setTimeout(() => done(uploadIdle(idleMs)), idleMs);
    body.on('readable', onReady).on('end', onReady).on('error', done).on('close', onClose);
  });
}

/** As Node reports a client that hung up mid-body (node-route.ts stays silent about those). */
function aborted() {
  return Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
}
