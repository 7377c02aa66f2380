// DELETE /silo/v1/auditor-keys/{id}: the key stops working at once — docs/api.md, Auditor keys.
import { eventActorOf } from '@/lib/access/principal';
import { revokeAuditorKey } from '@/lib/access/revoke-auditor-key';
import { assertWorkspaceCaller, siloTarget } from '@/lib/http/auth';
import { siloContext } from '@/lib/http/context';
import { pathId } from '@/lib/http/request';
import { noContent } from '@/lib/http/respond';
import { route } from '@/lib/http/route';

export const { DELETE } = route({
  DELETE: async (req, { params }) => {
    const c = await siloContext(req);
    assertWorkspaceCaller(c.principal);
    const id = pathId(params.id, 'Auditor key not found');
    await revokeAuditorKey({ db: c.db, target: siloTarget(c.principal, req.headers), id, actor: eventActorOf(c.principal) });
    return noContent();
  },
});
