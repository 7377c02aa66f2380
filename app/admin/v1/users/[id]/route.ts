// GET /admin/v1/users/{id}, PATCH (name, password, admin, owner_ids — memberships replaced whole;
// a new password ends the user's sessions) and DELETE (the user's sessions end at once).
import { deleteUser } from '@/lib/access/delete-user';
import { getUser } from '@/lib/access/get-user';
import { updateUser } from '@/lib/access/update-user';
import { adminContext } from '@/lib/http/admin';
import { pathId, readJson } from '@/lib/http/request';
import { json, noContent } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { UserUpdate } from '@/lib/schemas/users';

export const { GET, PATCH, DELETE } = route({
  GET: async (req, { params }) => {
    const a = await adminContext(req);
    return json(await getUser(a.db, pathId(params.id, 'User not found')));
  },
  PATCH: async (req, { params }) => {
    const a = await adminContext(req);
    const patch = await readJson(req, UserUpdate, 64 * 1024);
    const acting = a.principal.kind === 'user' ? a.principal.userId : undefined;
    return json(await updateUser({ db: a.db, id: pathId(params.id, 'User not found'), patch, actingUserId: acting }));
  },
  DELETE: async (req, { params }) => {
    const a = await adminContext(req);
    const acting = a.principal.kind === 'user' ? a.principal.userId : undefined;
    await deleteUser({ db: a.db, id: pathId(params.id, 'User not found'), actingUserId: acting });
    return noContent();
  },
});
