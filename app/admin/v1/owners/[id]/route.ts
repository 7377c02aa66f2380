// GET /admin/v1/owners/{id}: the workspace and its keys (prefixes only); a member: its own only.
import { getOwner } from '@/lib/access/get-owner';
import { adminContext } from '@/lib/http/admin';
import { pathId } from '@/lib/http/request';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: async (req, { params }) => {
    const a = await adminContext(req, { members: true });
    return json(await getOwner({ db: a.db, scope: a.scope, id: pathId(params.id, 'Owner not found') }));
  },
});
