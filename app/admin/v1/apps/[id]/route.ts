// PATCH /admin/v1/apps/{id} {name?, trusted?} (admins): rename an application or change its trust.
import { updateApp } from '@/lib/access/update-app';
import { adminContext } from '@/lib/http/admin';
import { pathId, readJson } from '@/lib/http/request';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { AppUpdate } from '@/lib/schemas/access';

export const { PATCH } = route({
  PATCH: async (req, { params }) => {
    const a = await adminContext(req);
    const id = pathId(params.id, 'Application not found');
    return json(await updateApp(a.db, id, await readJson(req, AppUpdate, 64 * 1024)));
  },
});
