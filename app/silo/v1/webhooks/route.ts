// GET and POST /silo/v1/webhooks: a workspace environment's endpoints — docs/api.md, Webhooks.
import { siloTarget } from '@/lib/http/auth';
import { limits } from '@/lib/http/context';
import { readJson, readQuery } from '@/lib/http/request';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { webhookContext } from '@/lib/http/webhook-settings';
import { listQuery } from '@/lib/schemas/common';
import { webhookInput } from '@/lib/schemas/webhooks';
import { createWebhook } from '@/lib/webhooks/create-webhook';
import { listWebhooks } from '@/lib/webhooks/find-webhook';

export const { GET, POST } = route({
  GET: async (req) => {
    const c = await webhookContext(req);
    const q = readQuery(req.url, listQuery(limits().maxListLimit));
    return json(await listWebhooks(c.db, siloTarget(c.principal, req.headers), q));
  },
  POST: async (req) => {
    const c = await webhookContext(req);
    const input = await readJson(req, webhookInput, 64 * 1024);
    const hook = await createWebhook({
      db: c.db,
      target: siloTarget(c.principal, req.headers),
      input,
      actor: c.actor,
      settings: c.settings,
    });
    return json(hook, { status: 201, headers: { Location: `/silo/v1/webhooks/${hook.id}` } });
  },
});
