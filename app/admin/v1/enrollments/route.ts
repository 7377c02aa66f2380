// GET /admin/v1/enrollments (?owner_id=, ?app_id=, keyset pages); members see their workspaces'.
// POST (admins): enroll an application in a workspace — 201 new, 200 the one that exists.
import { createEnrollment } from '@/lib/access/create-enrollment';
import { listEnrollments } from '@/lib/access/list-enrollments';
import { adminContext } from '@/lib/http/admin';
import { readJson, readQuery } from '@/lib/http/request';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { limits } from '@/lib/http/context';
import { EnrollmentInput, enrollmentListQuery } from '@/lib/schemas/access';

export const { GET, POST } = route({
  GET: async (req) => {
    const a = await adminContext(req, { members: true });
    return json(await listEnrollments({ db: a.db, query: readQuery(req.url, enrollmentListQuery(limits().maxListLimit)), scope: a.scope }));
  },
  POST: async (req) => {
    const a = await adminContext(req);
    const { created, record } = await createEnrollment(a.db, await readJson(req, EnrollmentInput, 64 * 1024), a.actor);
    return json(record, { status: created ? 201 : 200 });
  },
});
