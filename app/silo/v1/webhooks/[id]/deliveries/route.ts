// GET /silo/v1/webhooks/{id}/deliveries: newest first, with their latest attempts — docs/api.md, Webhooks.
import { limits } from '@/lib/http/context';
import { pathId, readQuery } from '@/lib/http/request';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { webhookContext } from '@/lib/http/webhook-settings';
import { listQuery } from '@/lib/schemas/common';
import { listDeliveries } from '@/lib/webhooks/deliveries';

export const { GET } = route({
  GET: async (req, { params }) => {
    const c = await webhookContext(req);
    const q = readQuery(req.url, listQuery(limits().maxListLimit));
    return json(await listDeliveries(c.db, c.scope, pathId(params.id, 'Webhook not found'), q));
  },
});
