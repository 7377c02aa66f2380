// GET and POST /silo/v1/retention-rules: the caller's workspace's rules — docs/api.md, Retention.
import { assertManagesRetention, siloTarget } from '@/lib/http/auth';
import { limits, siloContext } from '@/lib/http/context';
import { readJson, readQuery } from '@/lib/http/request';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { RetentionRuleInput, RetentionRulesQuery } from '@/lib/schemas/retention';
import { createRetentionRule, listRetentionRules } from '@/lib/silo/retention/retention-rules';

export const { GET, POST } = route({
  GET: async (req) => {
    const c = await siloContext(req);
    return json(await listRetentionRules(c.db, siloTarget(c.principal, req.headers)));
  },
  POST: async (req) => {
    const c = await siloContext(req);
    assertManagesRetention(c.principal);
    const target = siloTarget(c.principal, req.headers);
    const q = readQuery(req.url, RetentionRulesQuery);
    const input = await readJson(req, RetentionRuleInput, limits().maxJsonBytes);
    const { rule } = await createRetentionRule({
      db: c.db,
      store: c.store,
      target,
      input,
      applyToExisting: q.apply_to_existing === 'true',
      actor: c.actor,
    });
    return json(rule, { status: 201, headers: { Location: `/silo/v1/retention-rules/${rule.id}` } });
  },
});
