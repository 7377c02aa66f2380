// GET /admin/v1/users and POST (admins): console users with the workspaces they belong to.
import { createUser } from '@/lib/access/create-user';
import { listUsers } from '@/lib/access/list-users';
import { adminContext } from '@/lib/http/admin';
import { readJson } from '@/lib/http/request';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { UserInput } from '@/lib/schemas/users';

export const { GET, POST } = route({
  GET: async (req) => {
    const a = await adminContext(req);
    const list = await listUsers(a.db);
    return json({ list, limit: list.length });
  },
  POST: async (req) => {
    const a = await adminContext(req);
    return json(await createUser(a.db, await readJson(req, UserInput, 64 * 1024)), { status: 201 });
  },
});
