// GET /admin/v1/enrollments (?owner_id=, ?app_id=, keyset pages); members see their workspaces'.
import { listEnrollments } from '@/lib/access/list-enrollments';
import { adminContext } from '@/lib/http/admin';
import { readQuery } from '@/lib/http/request';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { limits } from '@/lib/http/context';
import { enrollmentListQuery } from '@/lib/schemas/access';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: async (req) => {
    const a = await adminContext(req, { members: true });
    return json(await listEnrollments({ db: a.db, query: readQuery(req.url, enrollmentListQuery(limits().maxListLimit)), scope: a.scope }));
  },
});
