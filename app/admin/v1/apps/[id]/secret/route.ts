// POST /admin/v1/apps/{id}/secret: a new client secret; the old one stops working.
import { rotateAppSecret } from '@/lib/access/rotate-app-secret';
import { adminContext } from '@/lib/http/admin';
import { pathId } from '@/lib/http/request';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';

export const { POST } = route({
  POST: async (req, { params }) => {
    const a = await adminContext(req);
    return json(await rotateAppSecret(a.db, pathId(params.id, 'Application not found')));
  },
});
