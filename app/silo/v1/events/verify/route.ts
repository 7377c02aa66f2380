// GET /silo/v1/events/verify: the caller's chain recomputed from its first record — docs/api.md, Events.
import { auditKey } from '@/lib/events/signing-key';
import { pinnedTsaCert } from '@/lib/events/timestamp';
import { verifyChain } from '@/lib/events/verify-chain';
import { siloTarget } from '@/lib/http/auth';
import { siloContext } from '@/lib/http/context';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';

export const { GET } = route({
  GET: async (req) => {
    const c = await siloContext(req);
    return json(await verifyChain(c.db, siloTarget(c.principal, req.headers), await auditKey(), { tsaCert: pinnedTsaCert() }));
  },
});
