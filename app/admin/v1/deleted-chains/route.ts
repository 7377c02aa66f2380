// GET /admin/v1/deleted-chains (administrators): deleted workspaces' chains, each one's final head
// and last record kept and checked (docs/api.md, Events) — an override's retention.bypassed survives here.
import { listDeletedChains } from '@/lib/events/deleted-chains';
import { adminContext } from '@/lib/http/admin';
import { limits } from '@/lib/http/context';
import { readQuery } from '@/lib/http/request';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { deletedChainsQuery } from '@/lib/schemas/events';

export const { GET } = route({
  GET: async (req) => {
    const a = await adminContext(req);
    return json(await listDeletedChains(a.db, readQuery(req.url, deletedChainsQuery(limits().maxListLimit))));
  },
});
