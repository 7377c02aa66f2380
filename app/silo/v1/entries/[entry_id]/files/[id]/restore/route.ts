// POST …/files/{id}/restore: that version's bytes become a new current version (docs/api.md, Files).
import { siloContext } from '@/lib/http/context';
import { entryFileOf } from '@/lib/http/entry-file';
import { fileCreatedResponse } from '@/lib/http/file-reply';
import { route } from '@/lib/http/route';
import { restoreFile } from '@/lib/silo/files/restore-file';

export const { POST } = route({
  POST: async (req, { params }) => {
    const c = await siloContext(req);
    return fileCreatedResponse(c, await restoreFile({ db: c.db, store: c.store, version: await entryFileOf(c, params), actor: c.actor }));
  },
});
