// Readiness: the database answers and the blob store can be written and read.
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/errors';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { blobStore } from '@/lib/storage';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: async () => {
    const checks: Record<string, string> = {};
    try {
      await (await getDb()).$queryRaw`SELECT 1`;
      checks.database = 'ok';
      await blobStore().check();
      checks.storage = 'ok';
    } catch {
      throw new ApiError('internal', `Not ready: ${checks.database ? 'blob store' : 'database'} failed`);
    }
    return json({ ready: true, checks });
  },
});
