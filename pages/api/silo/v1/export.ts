// GET /silo/v1/export?from=YYYY-MM-DD&to=YYYY-MM-DD — the auditor's export of the caller's chain
// (workspace and environment) for a period, a ZIP streamed with its Content-Length: docs/api.md, Export.
// A Node route: the bytes go straight to the socket, with its backpressure.
import { pipeline } from 'node:stream/promises';
import { auditKey } from '@/lib/events/signing-key';
import { siloTarget } from '@/lib/http/auth';
import { siloContext } from '@/lib/http/context';
import { callerOf } from '@/lib/http/node-adapter';
import { nodeRoute } from '@/lib/http/node-route';
import { readQuery } from '@/lib/http/request';
import { exportQuery } from '@/lib/schemas/export';
import { createExport } from '@/lib/silo/export/create-export';

export const config = { api: { bodyParser: false, responseLimit: false, externalResolver: true } };

export default nodeRoute({
  GET: async (req, res) => {
    const caller = callerOf(req);
    const c = await siloContext(caller);
    const chain = siloTarget(c.principal, caller.headers);
    const period = readQuery(new URL(req.url ?? '/', 'http://internal'), exportQuery);
    const { zip, size } = await createExport({
      db: c.db,
      store: c.store,
      chain,
      period,
      key: await auditKey(),
      actor: c.actor,
      location: c.signer.base,
    });
    const name = `silo-export-${chain.ownerId}-${chain.sandbox ? 'sandbox' : 'live'}-${period.from}-${period.to}.zip`;
    res.statusCode = 200;
    res.setHeader('Content-Type', 'application/zip');
    res.setHeader('Content-Length', size);
    res.setHeader('Content-Disposition', `attachment; filename="${name}"`);
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // A reader that goes away stops the reads: the source being read is closed, no other opened.
    res.once('close', () => {
      if (!res.writableFinished) zip.abort();
    });
    try {
      await pipeline(zip.stream, res);
    } catch (err) {
      if (!res.writableFinished && (req.destroyed || res.destroyed) && !zip.stream.errored) return;
      throw err;
    }
  },
});
