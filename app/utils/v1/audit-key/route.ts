// GET /utils/v1/audit-key: the public half of the key that signs the event log's checkpoints and
// the auditor's exports — docs/api.md, Events. Public: it proves nothing by itself.
import { auditKey } from '@/lib/events/signing-key';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';

export const { GET } = route({
  GET: async () => {
    const key = await auditKey();
    return json({ alg: 'Ed25519', key_id: key.keyId, public_key: key.publicPem });
  },
});
