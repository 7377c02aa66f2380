// GET /admin/v1/owners/{id}: the workspace and its keys (prefixes only).
import { getOwner } from '@/lib/access/owners';
import { notFound } from '@/lib/errors';
import { adminContext } from '@/lib/http/admin';
import { pathId } from '@/lib/http/request';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: async (req, { params }) => {
    const a = await adminContext(req, { members: true });
    const id = pathId(params.id, 'Owner not found');
    if (a.onlyOwners && !a.onlyOwners.includes(id)) throw notFound('Owner not found');
    return json(await getOwner(a.db, id));
  },
});
