// GET /admin/v1/me: the signed-in console user (the console's header and navigation read it).
import { getUser } from '@/lib/access/get-user';
import { ApiError } from '@/lib/errors';
import { authenticate } from '@/lib/http/auth';
import { getDb } from '@/lib/db/client';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';

export const { GET } = route({
  GET: async (req) => {
    const p = await authenticate(req);
    if (p.kind !== 'user') throw new ApiError('forbidden', 'Only console users have a profile');
    return json(await getUser(await getDb(), p.userId));
  },
});
