// GET /admin/v1/apps (no secrets; a member: the apps enrolled in its workspaces) and POST (admins):
// an application with its client secret, shown once.
import { createApp } from '@/lib/access/create-app';
import { listApps } from '@/lib/access/list-apps';
import { adminContext } from '@/lib/http/admin';
import { readJson, readQuery } from '@/lib/http/request';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { limits } from '@/lib/http/context';
import { listQuery } from '@/lib/schemas/common';
import { AppInput } from '@/lib/schemas/access';

export const { GET, POST } = route({
  GET: async (req) => {
    const a = await adminContext(req, { members: true });
    return json(await listApps({ db: a.db, query: readQuery(req.url, listQuery(limits().maxListLimit)), scope: a.scope }));
  },
  POST: async (req) => {
    const a = await adminContext(req);
    return json(await createApp(a.db, await readJson(req, AppInput, 64 * 1024)), { status: 201 });
  },
});
