// DELETE /admin/v1/owners/{id}/keys/{key_id}: the key stops working at once.
import { revokeApiKey } from '@/lib/access/revoke-api-key';
import { adminContext } from '@/lib/http/admin';
import { pathId } from '@/lib/http/request';
import { noContent } from '@/lib/http/respond';
import { route } from '@/lib/http/route';

export const { DELETE } = route({
  DELETE: async (req, { params }) => {
    const a = await adminContext(req);
    await revokeApiKey({
      db: a.db,
      ownerId: pathId(params.id, 'Owner not found'),
      keyId: pathId(params.key_id, 'Key not found'),
      actor: a.actor,
    });
    return noContent();
  },
});
