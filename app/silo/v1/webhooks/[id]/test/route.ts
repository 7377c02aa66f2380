// POST /silo/v1/webhooks/{id}/test: a webhook.test message to this endpoint — docs/api.md, Webhooks.
import { pathId } from '@/lib/http/request';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { webhookContext } from '@/lib/http/webhook-settings';
import { sendTestMessage } from '@/lib/webhooks/deliveries';

export const { POST } = route({
  POST: async (req, { params }) => {
    const c = await webhookContext(req);
    return json(await sendTestMessage(c.db, c.scope, pathId(params.id, 'Webhook not found'), c.actor), { status: 202 });
  },
});
