// A ZIP made by write-export.ts (an export, a backup) to a Node response: its headers, then its
// chunks to the socket with its backpressure, each given back to the ZIP's buffer pool once written
// (the write's callback), so the bytes of a 2 GiB ZIP pass through a few buffers. A reader that goes
// away stops the reads: the source being read is closed, no other opened.
import type { ServerResponse } from 'node:http';
import type { ExportZip } from '../silo/export/write-export';

class ReaderGone extends Error {}

export function zipHeaders(res: ServerResponse, name: string) {
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/zip');
  res.setHeader('Content-Disposition', `attachment; filename="${name}"`);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
}

/** Sends `zip` (its headers already set) with its Content-Length; a ZIP that breaks off closes the socket short and throws. */
export async function sendZip(res: ServerResponse, zip: ExportZip, size: number): Promise<void> {
  res.setHeader('Content-Length', size);
  let gone = false;
  res.once('close', () => {
    if (res.writableFinished) return;
    gone = true;
    zip.abort();
  });
  try {
    await writeChunks(res, zip);
  } catch (err) {
    // The reader went away: nothing to answer. Else the ZIP broke off: the socket is closed
    // short of its Content-Length, and the error is logged.
    if (gone || err instanceof ReaderGone) return;
    res.destroy(err as Error);
    throw err;
  }
}

async function writeChunks(res: ServerResponse, zip: Pick<ExportZip, 'chunks' | 'release'>) {
  for await (const chunk of zip.chunks()) {
    if (res.destroyed) throw new ReaderGone();
    const more = res.write(chunk, (err) => {
      if (!err) zip.release(chunk);
    });
    if (!more) await either(res, 'drain', 'close');
  }
  if (res.destroyed) throw new ReaderGone();
  const finished = either(res, 'finish', 'close');
  res.end();
  await finished;
}

/** Resolves at the first of two events. */
function either(res: ServerResponse, a: string, b: string) {
  return new Promise<void>((resolve) => {
    const done = () => {
      res.off(a, done);
      res.off(b, done);
      resolve();
    };
    res.on(a, done);
    res.on(b, done);
  });
}
