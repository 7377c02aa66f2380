// POST /admin/v1/setup {token, email, name, password}: the one-time setup link creates the first admin.
import { completeSetup } from '@/lib/access/complete-setup';
import { getDb } from '@/lib/db/client';
import { readJson } from '@/lib/http/request';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { SetupInput } from '@/lib/schemas/users';

export const { POST } = route({
  POST: async (req) => {
    const input = await readJson(req, SetupInput, 16 * 1024);
    const user = await completeSetup({ db: await getDb(), token: input.token, user: input });
    return json(
      { id: user.id, email: user.email, name: user.name, admin: user.admin, owner_ids: [], created_at: user.createdAt.toISOString() },
      { status: 201 },
    );
  },
});
