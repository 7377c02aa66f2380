// DELETE /silo/v1/retention-rules/{id}: versions keep the dates it gave them — docs/api.md, Retention.
import { assertManagesRetention, siloTarget } from '@/lib/http/auth';
import { siloContext } from '@/lib/http/context';
import { pathId } from '@/lib/http/request';
import { noContent } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { deleteRetentionRule } from '@/lib/silo/retention/retention-rules';

export const { DELETE } = route({
  DELETE: async (req, { params }) => {
    const c = await siloContext(req);
    assertManagesRetention(c.principal);
    const id = pathId(params.id, 'Retention rule not found');
    await deleteRetentionRule(c.db, siloTarget(c.principal, req.headers), id, c.actor);
    return noContent();
  },
});
