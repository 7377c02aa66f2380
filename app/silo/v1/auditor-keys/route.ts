// GET /silo/v1/auditor-keys (the environment's keys, no secrets) and POST (a new key, shown once)
// — docs/api.md, Auditor keys.
import { eventActorOf } from '@/lib/access/principal';
import { createAuditorKey } from '@/lib/access/create-auditor-key';
import { listAuditorKeys } from '@/lib/access/list-auditor-keys';
import { assertWorkspaceCaller, siloTarget } from '@/lib/http/auth';
import { limits, siloContext } from '@/lib/http/context';
import { readJson } from '@/lib/http/request';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { AuditorKeyInput } from '@/lib/schemas/auditor-keys';

export const { GET, POST } = route({
  GET: async (req) => {
    const c = await siloContext(req);
    assertWorkspaceCaller(c.principal);
    return json(await listAuditorKeys(c.db, siloTarget(c.principal, req.headers)));
  },
  POST: async (req) => {
    const c = await siloContext(req);
    assertWorkspaceCaller(c.principal);
    const target = siloTarget(c.principal, req.headers);
    const input = await readJson(req, AuditorKeyInput, limits().maxJsonBytes);
    const key = await createAuditorKey({ db: c.db, target, input, actor: eventActorOf(c.principal) });
    return json(key, { status: 201, headers: { 'Cache-Control': 'no-store' } });
  },
});
