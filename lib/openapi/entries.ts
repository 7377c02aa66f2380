// /silo/v1/entries: create, read, list, update and delete entries (docs/api.md, Entries).
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { listQuery } from '../schemas/common';
import { EntryList, EntryRecord, FolderList, entryInput, entryListQuery, entryUpdate, folderListQuery } from '../schemas/entries';
import { BYPASS_GOVERNANCE, ENTRY_ID, body, errors, ok, type DocLimits } from './shared';

const tags = ['Entries'];

/** ?limit= and ?cursor= of every list, from the schema that reads them. */
export const pageParams = (l: DocLimits) => listQuery(l.maxListLimit);

export const entryPaths = (l: DocLimits): ZodOpenApiPathsObject => {
  const input = entryInput(l.meta);
  return {
    '/silo/v1/entries': {
      get: {
        operationId: 'listEntries',
        tags,
        summary: 'List entries, newest first',
        // The query's schema is the one that validates it (lib/schemas/entries.ts).
        requestParams: { query: entryListQuery(l.maxListLimit) },
        responses: { '200': ok('A page of entries', EntryList), ...errors(401, 422) },
      },
      post: {
        operationId: 'createEntry',
        tags,
        summary: 'Create an entry',
        requestBody: body(input),
        responses: { '201': ok('Created', EntryRecord), ...errors(401, 409, 415, 422) },
      },
    },
    '/silo/v1/folders': {
      get: {
        operationId: 'listFolders',
        tags,
        summary: 'The folders with entries at or below them, sorted by folder, keyset pages; one level with ?parent=',
        requestParams: { query: folderListQuery(l.maxListLimit) },
        responses: { '200': ok('The folders', FolderList), ...errors(400, 401, 422) },
      },
    },
    '/silo/v1/entries/{entry_id}': {
      parameters: [ENTRY_ID],
      get: {
        operationId: 'getEntry',
        tags,
        summary: 'An entry with its current files (attachments)',
        responses: { '200': ok('The entry', EntryRecord), ...errors(401, 404) },
      },
      put: {
        operationId: 'putEntry',
        tags,
        summary: "Create an entry with the caller's id (idempotent)",
        requestBody: body(input),
        responses: { '201': ok('Created', EntryRecord), '200': ok('The same request again', EntryRecord), ...errors(401, 409, 415, 422) },
      },
      patch: {
        operationId: 'updateEntry',
        tags,
        summary: 'Update name, folder, key or meta',
        requestBody: body(entryUpdate(l.meta)),
        responses: { '200': ok('Updated', EntryRecord), ...errors(401, 404, 409, 415, 422) },
      },
      delete: {
        operationId: 'deleteEntry',
        tags,
        summary: 'Delete the entry with all its files',
        description:
          '409 `retained` (until when) or `legal_hold` while a version of it is retained or the entry is held (recorded as entry.delete_refused).',
        parameters: [BYPASS_GOVERNANCE],
        responses: { '204': ok('Deleted'), ...errors(400, 401, 403, 404, 409) },
      },
    },
  };
};
