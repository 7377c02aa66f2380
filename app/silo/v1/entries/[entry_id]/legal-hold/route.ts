// PUT /silo/v1/entries/{id}/legal-hold {hold, reason}: put on or lift an entry's legal hold — docs/api.md, Retention.
import { assertManagesRetention } from '@/lib/http/auth';
import { limits, siloContext } from '@/lib/http/context';
import { pathId, readJson } from '@/lib/http/request';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { LegalHoldInput } from '@/lib/schemas/retention';
import { setLegalHold } from '@/lib/silo/retention/set-legal-hold';

export const { PUT } = route({
  PUT: async (req, { params }) => {
    const c = await siloContext(req);
    assertManagesRetention(c.principal);
    const entryId = pathId(params.entry_id, 'Entry not found');
    const input = await readJson(req, LegalHoldInput, limits().maxJsonBytes);
    return json(await setLegalHold({ db: c.db, store: c.store, scope: c.scope, entryId, input, actor: c.actor }));
  },
});
