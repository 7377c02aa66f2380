// POST …/files/{id}/links: a link to this version that works without credentials until it
// expires; DELETE revokes every link of it by rotating its nonce (docs/api.md, Links).
import { limits, siloContext } from '@/lib/http/context';
import { entryFileOf } from '@/lib/http/entry-file';
import { readJson } from '@/lib/http/request';
import { json, noContent } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { LinkInput } from '@/lib/schemas/files';
import { makeLink, revokeLinks } from '@/lib/silo/files/file-links';

export const { POST, DELETE } = route({
  POST: async (req, { params }) => {
    const c = await siloContext(req);
    const file = await entryFileOf(c, params);
    const { expires_in } = await readJson(req, LinkInput, limits().maxJsonBytes);
    return json(await makeLink(c.db, c.signer, file, expires_in, c.actor), { status: 201 });
  },
  DELETE: async (req, { params }) => {
    const c = await siloContext(req);
    await revokeLinks(c.db, await entryFileOf(c, params), c.actor);
    return noContent();
  },
});
