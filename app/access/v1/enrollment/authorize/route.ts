// POST /access/v1/enrollment/authorize (docs/api.md, Authorize).
import { authorizeEnrollment } from '@/lib/access/authorize-enrollment';
import { countAuthorizeCall, verifyWithinLimits } from '@/lib/access/authorize-limit';
import { verifyClient } from '@/lib/access/verify-client';
import { config } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/errors';
import { bearerOf } from '@/lib/http/auth';
import { basicCredentials } from '@/lib/http/basic';
import { clientAddress } from '@/lib/http/client-address';
import { readJson } from '@/lib/http/request';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { AuthorizeInput } from '@/lib/schemas/access';

export const { POST } = route({
  POST: async (req) => {
    const c = config();
    const address = clientAddress(req.headers);
    const db = await getDb();
    const limits = { perMinute: c.RATE_LIMIT_AUTHORIZE_PER_MINUTE, failuresPerMinute: c.RATE_LIMIT_AUTHORIZE_FAILURES_PER_MINUTE };
    await countAuthorizeCall(db, address, limits);
    const input = await readJson(req, AuthorizeInput, 64 * 1024);
    const basic = basicCredentials(req.headers);
    const clientId = basic?.id ?? input.client_id;
    const secret = basic?.secret ?? input.client_secret;
    if (!clientId || !secret) throw new ApiError('unauthorized', 'Send client_id and client_secret (in the body or as HTTP Basic)');
    const app = await verifyWithinLimits(db, limits, { address, clientId }, () => verifyClient({ db, clientId, secret }));
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
