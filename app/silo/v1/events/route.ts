// GET /silo/v1/events: the caller's chain of the event log, oldest or newest first — docs/api.md, Events.
import { eventRange, listEvents } from '@/lib/events/list-events';
import { siloTarget } from '@/lib/http/auth';
import { limits, siloContext } from '@/lib/http/context';
import { readQuery } from '@/lib/http/request';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { eventListQuery } from '@/lib/schemas/events';

export const { GET } = route({
  GET: async (req) => {
    const c = await siloContext(req, { auditor: true });
    const q = readQuery(req.url, eventListQuery(limits().maxListLimit));
    const chain = siloTarget(c.principal, req.headers);
    return json(await listEvents(c.db, chain, { ...q, ...eventRange(q), period: chain.period }));
  },
});
