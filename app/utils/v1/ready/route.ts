// Readiness: the database answers, the blob store is this database's, and it can be written and read.
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/errors';
import { json } from '@/lib/http/respond';
import { log } from '@/lib/log';
import { route } from '@/lib/http/route';
import { bindStore } from '@/lib/silo/store-binding';
import { blobStore } from '@/lib/storage';

export const dynamic = 'force-dynamic';

export const { GET } = route({
  GET: async () => {
    const checks: Record<string, string> = {};
    let failed = 'the database does not answer';
    try {
      const db = await getDb();
      await db.$queryRaw`SELECT 1`;
      checks.database = 'ok';
      failed = 'the blob store cannot be written and read';
      await bindStore(db, blobStore());
      await blobStore().check();
      checks.storage = 'ok';
    } catch (err) {
      if ((err as Error)?.name === 'StoreOfAnotherDatabase') failed = 'the blob store belongs to another database';
      log.error({ error: String((err as Error)?.message ?? err) }, `not ready: ${failed}`);
      throw new ApiError('not_ready', `Not ready: ${failed}`);
    }
    return json({ ready: true, checks });
  },
});
