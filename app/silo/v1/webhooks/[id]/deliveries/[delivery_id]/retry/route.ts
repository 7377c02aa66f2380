// POST /silo/v1/webhooks/{id}/deliveries/{delivery_id}/retry: due now, 24 h of retries again — docs/api.md, Webhooks.
import { pathId } from '@/lib/http/request';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { webhookContext } from '@/lib/http/webhook-settings';
import { retryDelivery } from '@/lib/webhooks/deliveries';

export const { POST } = route({
  POST: async (req, { params }) => {
    const c = await webhookContext(req);
    const delivery = await retryDelivery(
      c.db,
      c.scope,
      pathId(params.id, 'Webhook not found'),
      pathId(params.delivery_id, 'Delivery not found'),
    );
    return json(delivery, { status: 202 });
  },
});
