// GET /silo/v1/events: the caller's chain of the event log, oldest or newest first — docs/api.md, Events.
import { eventRange, listEvents } from '@/lib/events/list-events';
import { siloTarget } from '@/lib/http/auth';
import { limits, siloContext } from '@/lib/http/context';
import { readQuery } from '@/lib/http/request';
import { json } from '@/lib/http/respond';
import { mayReadWebhooks } from '@/lib/http/webhook-settings';
import { route } from '@/lib/http/route';
import { eventListQuery } from '@/lib/schemas/events';
import { withoutEndpointUrls } from '@/lib/webhooks/recorded-url';

export const { GET } = route({
  GET: async (req) => {
    const c = await siloContext(req, { auditor: true });
    const q = readQuery(req.url, eventListQuery(limits().maxListLimit));
    const chain = siloTarget(c.principal, req.headers);
    const page = await listEvents(c.db, chain, { ...q, ...eventRange(q), period: chain.period });
    // a caller that may not read the endpoints reads no URL of theirs here either
    if (!mayReadWebhooks(c.principal)) page.list = page.list.map(withoutEndpointUrls);
    return json(page);
  },
});
