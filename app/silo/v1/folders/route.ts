// GET /silo/v1/folders: the folders of the caller's owner and environment — docs/api.md, Entries.
import { siloTarget } from '@/lib/http/auth';
import { siloContext } from '@/lib/http/context';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { listFolders } from '@/lib/silo/list-folders';

export const { GET } = route({
  GET: async (req) => {
    const c = await siloContext(req);
    return json(await listFolders(c.db, siloTarget(c.principal, req.headers)));
  },
});
