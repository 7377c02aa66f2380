// GET /silo/v1/export?from=YYYY-MM-DD&to=YYYY-MM-DD — the auditor's export of the caller's chain
// (workspace and environment) for a period, a ZIP streamed with its Content-Length: docs/api.md, Export.
// A Node route: the bytes go straight to the socket, with its backpressure.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { auditKey } from '@/lib/events/signing-key';
import { siloTarget } from '@/lib/http/auth';
import { siloContext } from '@/lib/http/context';
import { callerOf } from '@/lib/http/node-adapter';
import { nodeRoute } from '@/lib/http/node-route';
import { readQuery } from '@/lib/http/request';
import { mayReadWebhooks } from '@/lib/http/webhook-settings';
import { ApiError } from '@/lib/errors';
import { exportQuery } from '@/lib/schemas/export';
import { clampExportPeriod, createExport } from '@/lib/silo/export/create-export';
import { eventActorOf } from '@/lib/access/principal';

export const config = { api: { bodyParser: false, responseLimit: false, externalResolver: true } };

class ReaderGone extends Error {}

/**
 * The ZIP's chunks to the socket with its backpressure, each given back to the export's buffer pool
 * once written (the write's callback): the bytes of a 2 GiB export pass through a few buffers.
 */
async function writeChunks(res: ServerResponse, zip: { chunks(): AsyncIterable<Buffer>; release(chunk: Buffer): void }) {
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

/** What both methods check first: the caller, its chain, the period. */
async function exportRequest(req: IncomingMessage) {
  const caller = callerOf(req);
  const c = await siloContext(caller, { auditor: true });
  // The export holds every record as written, older webhook records' endpoint URLs included: an
  // application's token, which may not read the endpoints, may not take it either.
  if (!mayReadWebhooks(c.principal))
    throw new ApiError('forbidden', "The auditor's export is taken with the workspace's API key, an auditor key or in the console");
  const { period: keyPeriod, ...chain } = siloTarget(c.principal, caller.headers);
  const asked = readQuery(new URL(req.url ?? '/', 'http://internal'), exportQuery);
  // An auditor's key: the days asked for that fall in its period, no others (403 if none).
  const period = keyPeriod ? clampExportPeriod(asked, keyPeriod) : asked;
  const name = `silo-export-${chain.ownerId}-${chain.sandbox ? 'sandbox' : 'live'}-${period.from}-${period.to}.zip`;
  return { c, chain, period, name };
}

function zipHeaders(res: ServerResponse, name: string) {
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/zip');
  res.setHeader('Content-Disposition', `attachment; filename="${name}"`);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
}

export default nodeRoute({
  GET: async (req, res) => {
    const { c, chain, period, name } = await exportRequest(req);
    const { zip, size } = await createExport({
      db: c.db,
      store: c.store,
      chain,
      period,
      key: await auditKey(),
      actor: eventActorOf(c.principal),
      location: c.signer.base,
    });
    zipHeaders(res, name);
    res.setHeader('Content-Length', size);
    // A reader that goes away stops the reads: the source being read is closed, no other opened.
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
  },
  // GET's checks and headers, without planning the export (its Content-Length is known only by
  // reading every record and version: RFC 9110 §9.3.2 lets HEAD omit it) and without its record.
  HEAD: async (req, res) => {
    const { name } = await exportRequest(req);
    zipHeaders(res, name);
    res.end();
  },
});
