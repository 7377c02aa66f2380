// POST /access/v1/enrollment/authorize (docs/api.md, Authorize).
import { authorizeEnrollment } from '@/lib/access/authorize-enrollment';
import { verifyClient } from '@/lib/access/verify-client';
import { config } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/errors';
import { bearerOf } from '@/lib/http/auth';
import { basicCredentials } from '@/lib/http/basic';
import { countAuthorizeCall, verifyWithinLimits } from '@/lib/http/authorize-limit';
import { clientAddress } from '@/lib/http/client-address';
import { readJson } from '@/lib/http/request';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { AuthorizeInput } from '@/lib/schemas/access';

export const { POST } = route({
  POST: async (req) => {
    const c = config();
    const address = clientAddress(req.headers);
    await countAuthorizeCall(address);
    const input = await readJson(req, AuthorizeInput, 64 * 1024);
    const basic = basicCredentials(req.headers);
    const clientId = basic?.id ?? input.client_id;
    const secret = basic?.secret ?? input.client_secret;
    if (!clientId || !secret) throw new ApiError('unauthorized', 'Send client_id and client_secret (in the body or as HTTP Basic)');
    const db = await getDb();
    const app = await verifyWithinLimits(address, clientId, () => verifyClient({ db, clientId, secret }));
    const ownerKey = req.headers.get('x-owner-key') ?? (basic ? undefined : bearerOf(req.headers));
    const record = await authorizeEnrollment(db, {
      app,
      id: input.id,
      ownerId: input.owner_id,
      sandbox: input.sandbox,
      ownerKey,
      tokenTtlSeconds: c.TOKEN_TTL_SECONDS,
    });
    return json(record);
  },
});
