// POST /admin/v1/owners/{id}/keys: a new live or sandbox API key, shown in this response only.
import { createApiKey } from '@/lib/access/create-api-key';
import { adminContext } from '@/lib/http/admin';
import { pathId, readJson } from '@/lib/http/request';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { KeyInput } from '@/lib/schemas/access';

export const { POST } = route({
  POST: async (req, { params }) => {
    const a = await adminContext(req);
    const input = await readJson(req, KeyInput, 64 * 1024);
    return json(await createApiKey({ db: a.db, ownerId: pathId(params.id, 'Owner not found'), sandbox: input.sandbox, actor: a.actor }), {
      status: 201,
    });
  },
});
