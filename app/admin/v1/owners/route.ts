// GET /admin/v1/owners (members: their own) and POST (admins): a workspace with a live and a sandbox key.
import { createOwner } from '@/lib/access/create-owner';
import { listOwners } from '@/lib/access/list-owners';
import { adminContext } from '@/lib/http/admin';
import { readJson, readQuery } from '@/lib/http/request';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { limits } from '@/lib/http/context';
import { listQuery } from '@/lib/schemas/common';
import { OwnerInput } from '@/lib/schemas/access';

export const { GET, POST } = route({
  GET: async (req) => {
    const a = await adminContext(req, { members: true });
    return json(await listOwners({ db: a.db, query: readQuery(req.url, listQuery(limits().maxListLimit)), scope: a.scope }));
  },
  POST: async (req) => {
    const a = await adminContext(req);
    const input = await readJson(req, OwnerInput, 64 * 1024);
    return json(await createOwner(a.db, input.name, a.actor), { status: 201 });
  },
});
