// GET /admin/v1/owners/{id}: the workspace, its keys (prefixes only) and usage; a member: its own only.
// PATCH {name} (admins): rename it. DELETE (admins): the workspace with everything in it, unless
// something in it is retained or held (docs/api.md, Retention).
import { getOwner } from '@/lib/access/get-owner';
import { deleteOwner } from '@/lib/access/delete-owner';
import { renameOwner } from '@/lib/access/rename-owner';
import { adminContext } from '@/lib/http/admin';
import { pathId, readJson } from '@/lib/http/request';
import { bypassesGovernance } from '@/lib/http/context';
import { json, noContent } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { OwnerUpdate } from '@/lib/schemas/access';

export const { GET, PATCH, DELETE } = route({
  GET: async (req, { params }) => {
    const a = await adminContext(req, { members: true });
    return json(await getOwner({ db: a.db, scope: a.scope, id: pathId(params.id, 'Owner not found') }));
  },
  PATCH: async (req, { params }) => {
    const a = await adminContext(req);
    const id = pathId(params.id, 'Owner not found');
    const input = await readJson(req, OwnerUpdate, 64 * 1024);
    return json(await renameOwner(a.db, id, input.name, a.actor));
  },
  DELETE: async (req, { params }) => {
    const a = await adminContext(req);
    const id = pathId(params.id, 'Owner not found');
    await deleteOwner({ db: a.db, id, actor: a.actor, bypassGovernance: bypassesGovernance(req.headers) });
    return noContent();
  },
});
