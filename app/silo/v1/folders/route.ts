// GET /silo/v1/folders: the folders of the caller's owner and environment, paged — docs/api.md, Entries.
import { siloTarget } from '@/lib/http/auth';
import { limits, siloContext } from '@/lib/http/context';
import { readQuery } from '@/lib/http/request';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { folderListQuery } from '@/lib/schemas/entries';
import { listFolders } from '@/lib/silo/list-folders';

export const { GET } = route({
  GET: async (req) => {
    const c = await siloContext(req);
    const query = readQuery(req.url, folderListQuery(limits().maxListLimit));
    return json(await listFolders(c.db, siloTarget(c.principal, req.headers), query));
  },
});
