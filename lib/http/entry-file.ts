// The file at /silo/v1/entries/{entry_id}/files/{id} for the caller: shared by that path's methods
// and its /data upload, on either router.
import { findFileInEntry } from '../silo/files/find-file';
import type { SiloContext } from './context';
import { pathId } from './request';

export const entryFileOf = (c: SiloContext, params: { entry_id?: string; id?: string }) =>
  findFileInEntry({
    db: c.db,
    scope: c.scope,
    entryId: pathId(params.entry_id, 'Entry not found'),
    id: pathId(params.id, 'File not found'),
  });
