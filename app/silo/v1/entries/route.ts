// GET /silo/v1/entries (newest first, keyset pages) and POST (service id) — docs/api.md, Input.
import { siloTarget } from '@/lib/http/auth';
import { limits, siloContext } from '@/lib/http/context';
import { readJson, readQuery } from '@/lib/http/request';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { createEntry } from '@/lib/silo/create-entry';
import { listEntries } from '@/lib/silo/list-entries';
import { presentEntry } from '@/lib/silo/present-entry';
import { entryInput, entryListQuery } from '@/lib/schemas/entries';

export const { GET, POST } = route({
  GET: async (req) => {
    const c = await siloContext(req, { auditor: true });
    const q = readQuery(req.url, entryListQuery(limits().maxListLimit));
    return json(await listEntries({ db: c.db, target: siloTarget(c.principal, req.headers), query: q }));
  },
  POST: async (req) => {
    const c = await siloContext(req);
    const l = limits();
    const input = await readJson(req, entryInput(l.meta), l.maxJsonBytes);
    const { entry } = await createEntry({ db: c.db, target: siloTarget(c.principal, req.headers), input, actor: c.actor });
    return json(presentEntry(entry, 0), { status: 201, headers: { Location: `/silo/v1/entries/${entry.id}` } });
  },
});
