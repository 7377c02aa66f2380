// GET, PATCH and DELETE /silo/v1/webhooks/{id} — docs/api.md, Webhooks.
import { pathId, readJson } from '@/lib/http/request';
import { json, noContent } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { webhookContext } from '@/lib/http/webhook-settings';
import { webhookUpdate } from '@/lib/schemas/webhooks';
import { findWebhook, presentWebhook } from '@/lib/webhooks/find-webhook';
import { deleteWebhook, updateWebhook } from '@/lib/webhooks/update-webhook';

const webhookId = (params: Record<string, string>) => pathId(params.id, 'Webhook not found');

export const { GET, PATCH, DELETE } = route({
  GET: async (req, { params }) => {
    const c = await webhookContext(req);
    return json(presentWebhook(await findWebhook(c.db, c.scope, webhookId(params))));
  },
  PATCH: async (req, { params }) => {
    const c = await webhookContext(req);
    const patch = await readJson(req, webhookUpdate, 64 * 1024);
    return json(await updateWebhook({ db: c.db, scope: c.scope, id: webhookId(params), patch, actor: c.actor, settings: c.settings }));
  },
  DELETE: async (req, { params }) => {
    const c = await webhookContext(req);
    await deleteWebhook({ db: c.db, scope: c.scope, id: webhookId(params), actor: c.actor });
    return noContent();
  },
});
