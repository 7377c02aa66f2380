// GET, PUT (caller id), PATCH and DELETE of one entry — contract §3.
import { siloTarget } from '@/lib/http/auth';
import { limits, siloContext } from '@/lib/http/context';
import { presentWithHistory } from '@/lib/http/handlers/files';
import { pathId, readJson } from '@/lib/http/request';
import { json, noContent } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { deleteEntry } from '@/lib/silo/delete-entry';
import { createEntry, findEntry, presentEntry, updateEntry } from '@/lib/silo/entries';
import { currentFiles } from '@/lib/silo/files/slots';
import { entryInput, entryUpdate } from '@/lib/schemas/entries';

const entryId = (params: Record<string, string>) => pathId(params.entry_id, 'Entry not found');

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: async (req, { params }) => {
    const c = await siloContext(req);
    const entry = await findEntry(c.db, c.scope, entryId(params));
    const attachments = await Promise.all((await currentFiles(c.db, entry.id)).map((f) => presentWithHistory(c, f)));
    return json({ ...presentEntry(entry), attachments });
  },
  PUT: async (req, { params }) => {
    const c = await siloContext(req);
    const l = limits();
    const input = await readJson(req, entryInput(l.meta), l.maxJsonBytes);
    const { entry, created } = await createEntry(c.db, siloTarget(c.principal, req.headers), input, entryId(params));
    return json(presentEntry(entry), { status: created ? 201 : 200, headers: created ? { Location: `/silo/v1/entries/${entry.id}` } : {} });
  },
  PATCH: async (req, { params }) => {
    const c = await siloContext(req);
    const patch = await readJson(req, entryUpdate(limits().meta), limits().maxJsonBytes);
    return json(presentEntry(await updateEntry(c.db, c.scope, entryId(params), patch)));
  },
  DELETE: async (req, { params }) => {
    const c = await siloContext(req);
    await deleteEntry(c.db, c.store, c.scope, entryId(params));
    return noContent();
  },
});
