// GET …/files (current files with their history) and POST (a new file or version, service id) —
// docs/api.md, Files. PUT …/files/{id} (the caller's id) is pages/api/silo/v1/entries/[entry_id]/files/[id].ts.
import { limits, siloContext } from '@/lib/http/context';
import { fileCreatedResponse, fileRecord, readFileInput } from '@/lib/http/file-reply';
import { pathId } from '@/lib/http/request';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { createFile } from '@/lib/silo/files/create-file';
import { listFiles } from '@/lib/silo/files/list-files';
import { findEntry } from '@/lib/silo/find-entry';

const entryId = (params: Record<string, string>) => pathId(params.entry_id, 'Entry not found');

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: async (req, { params }) => {
    const c = await siloContext(req);
    const entry = await findEntry({ db: c.db, scope: c.scope, id: entryId(params) });
    return json({ list: await Promise.all((await listFiles(c.db, entry.id)).map((f) => fileRecord(c, f))) });
  },
  POST: async (req, { params }) => {
    const c = await siloContext(req);
    const input = await readFileInput(req);
    const { file, created } = await createFile({
      db: c.db,
      store: c.store,
      scope: c.scope,
      entryId: entryId(params),
      input,
      limits: limits().files,
      actor: c.actor,
    });
    return fileCreatedResponse(c, file, created);
  },
});
