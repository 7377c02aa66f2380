// GET /silo/v1/export?from=YYYY-MM-DD&to=YYYY-MM-DD — the auditor's export of the caller's chain
// (workspace and environment) for a period, a ZIP streamed with its Content-Length: docs/api.md, Export.
// A Node route: the bytes go straight to the socket, with its backpressure.
import type { IncomingMessage } from 'node:http';
import { auditKey } from '@/lib/events/signing-key';
import { siloTarget } from '@/lib/http/auth';
import { siloContext } from '@/lib/http/context';
import { callerOf } from '@/lib/http/node-adapter';
import { nodeRoute } from '@/lib/http/node-route';
import { sendZip, zipHeaders } from '@/lib/http/send-zip';
import { readQuery } from '@/lib/http/request';
import { mayReadWebhooks } from '@/lib/http/webhook-settings';
import { ApiError } from '@/lib/errors';
import { exportQuery } from '@/lib/schemas/export';
import { clampExportPeriod, createExport } from '@/lib/silo/export/create-export';
import { eventActorOf } from '@/lib/access/principal';

export const config = { api: { bodyParser: false, responseLimit: false, externalResolver: true } };

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
    await sendZip(res, zip, size);
  },
  // GET's checks and headers, without planning the export (its Content-Length is known only by
  // reading every record and version: RFC 9110 §9.3.2 lets HEAD omit it) and without its record.
  HEAD: async (req, res) => {
    const { name } = await exportRequest(req);
    zipHeaders(res, name);
    res.end();
  },
});
