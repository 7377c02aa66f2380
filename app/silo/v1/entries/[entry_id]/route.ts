// GET, PUT (caller id), PATCH and DELETE of one entry — docs/api.md, Input.
import { siloTarget } from '@/lib/http/auth';
import { entryFiles } from '@/lib/silo/files/period-files';
import { deleteContext, limits, siloContext } from '@/lib/http/context';
import { pathId, readJson } from '@/lib/http/request';
import { json, noContent } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { deleteEntry } from '@/lib/silo/delete-entry';
import { createEntry } from '@/lib/silo/create-entry';
import { countFiles, factsOfCurrent } from '@/lib/silo/entry-rows';
import { findEntry } from '@/lib/silo/find-entry';
import { presentEntry } from '@/lib/silo/present-entry';
import { updateEntry } from '@/lib/silo/update-entry';
import { entryInput, entryUpdate } from '@/lib/schemas/entries';

const entryId = (params: Record<string, string>) => pathId(params.entry_id, 'Entry not found');

export const { GET, PUT, PATCH, DELETE } = route({
  GET: async (req, { params }) => {
    const c = await siloContext(req, { auditor: true });
    const entry = await findEntry({ db: c.db, scope: c.scope, id: entryId(params) });
    const { files, records: attachments } = await entryFiles(c, entry.id, c.scope.period);
    return json({ ...presentEntry(entry, attachments.length, factsOfCurrent(files)), attachments });
  },
  PUT: async (req, { params }) => {
    const c = await siloContext(req);
    const l = limits();
    const input = await readJson(req, entryInput(l.meta), l.maxJsonBytes);
    const { entry, created } = await createEntry({
      db: c.db,
      target: siloTarget(c.principal, req.headers),
      input,
      id: entryId(params),
      actor: c.actor,
    });
    const shown = created ? { fileCount: 0, facts: null } : await countFiles(c.db, entry.id);
    return json(presentEntry(entry, shown.fileCount, shown.facts), {
      status: created ? 201 : 200,
      headers: created ? { Location: `/silo/v1/entries/${entry.id}` } : {},
    });
  },
  PATCH: async (req, { params }) => {
    const c = await siloContext(req);
    const patch = await readJson(req, entryUpdate(limits().meta), limits().maxJsonBytes);
    const entry = await updateEntry({ db: c.db, scope: c.scope, id: entryId(params), patch, actor: c.actor });
    const shown = await countFiles(c.db, entry.id);
    return json(presentEntry(entry, shown.fileCount, shown.facts));
  },
  DELETE: async (req, { params }) => {
    const c = await deleteContext(req);
    await deleteEntry({
      db: c.db,
      store: c.store,
      scope: c.scope,
      id: entryId(params),
      actor: c.actor,
      bypassGovernance: c.bypassGovernance,
    });
    return noContent();
  },
});
