// POST /silo/v1/webhooks/{id}/rotate-secret: a new secret, the old one signing too for 24 h — docs/api.md, Webhooks.
import { pathId } from '@/lib/http/request';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { webhookContext } from '@/lib/http/webhook-settings';
import { rotateWebhookSecret } from '@/lib/webhooks/rotate-webhook-secret';

export const { POST } = route({
  POST: async (req, { params }) => {
    const c = await webhookContext(req);
    const id = pathId(params.id, 'Webhook not found');
    return json(await rotateWebhookSecret({ db: c.db, scope: c.scope, id, actor: c.actor, settings: c.settings }));
  },
});
