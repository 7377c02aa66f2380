// /silo/v1/entries/{entry_id}/files: a file's JSON operations and its bytes (docs/api.md, Files and Fetch).
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from 'zod-openapi';
import { FileLinkRecord, FileList, FileRecord, LinkInput, fileInput, fileUpdate } from '../schemas/files';
import { BYPASS_GOVERNANCE, ENTRY_ID, FILE_ID, body, bytes, errors, ok, type DocLimits } from './shared';

const tags = ['Files'];

export const filePaths = (l: DocLimits): ZodOpenApiPathsObject => {
  const create = {
    tags,
    requestBody: body(fileInput(l.meta)),
    responses: {
      '201': ok('Created: the file record (a placeholder has stored: false and an upload url)', FileRecord),
      ...errors(400, 401, 404, 409, 413, 415, 422),
    },
  } satisfies Partial<ZodOpenApiOperationObject>;
  return {
    '/silo/v1/entries/{entry_id}/files': {
      parameters: [ENTRY_ID],
      get: {
        operationId: 'listFiles',
        tags,
        summary: 'Current files, each with its previous versions',
        responses: { '200': ok('Files', FileList), ...errors(401, 404) },
      },
      post: { operationId: 'createFile', summary: 'Upload a file (inline data) or create a placeholder', ...create },
    },
    '/silo/v1/entries/{entry_id}/files/{id}': {
      parameters: [ENTRY_ID, FILE_ID],
      put: {
        operationId: 'putFile',
        summary: "Upload a file with the caller's id (safe to retry)",
        ...create,
        responses: { ...create.responses, '200': ok('The same request again', FileRecord) },
      },
      get: {
        operationId: 'getFileBytes',
        tags,
        summary: 'Fetch the bytes (Range, If-None-Match supported; HEAD for the headers alone)',
        parameters: [
          {
            name: 'download',
            in: 'query',
            description: '1: sent as an attachment (Content-Disposition)',
            schema: { type: 'string', enum: ['1'] },
          },
        ],
        responses: { '200': bytes('The bytes'), '206': bytes('A range'), '304': ok('Not modified'), ...errors(401, 404, 409, 416) },
      },
      patch: {
        operationId: 'updateFile',
        tags,
        summary: 'Update desc, meta, private, embeddable, or extend the retention (no new version)',
        requestBody: body(fileUpdate(l.meta)),
        responses: { '200': ok('Updated', FileRecord), ...errors(401, 404, 415, 422) },
      },
      delete: {
        operationId: 'deleteFile',
        tags,
        summary: 'Delete: a current file with its history, an earlier version alone',
        description:
          '409 `retained` (until when) or `legal_hold` while a version it takes is retained or its entry is held (recorded as file.delete_refused).',
        parameters: [BYPASS_GOVERNANCE],
        responses: { '204': ok('Deleted'), ...errors(400, 401, 403, 404, 409) },
      },
    },
    '/silo/v1/entries/{entry_id}/files/{id}/restore': {
      parameters: [ENTRY_ID, FILE_ID],
      post: {
        operationId: 'restoreFile',
        tags,
        summary: "Make this version's bytes the new current version",
        responses: { '201': ok('The new current version', FileRecord), ...errors(401, 404, 409) },
      },
    },
    '/silo/v1/entries/{entry_id}/files/{id}/links': {
      parameters: [ENTRY_ID, FILE_ID],
      post: {
        operationId: 'createFileLink',
        tags,
        summary: 'A GET/HEAD link to this version that works without credentials until it expires (private files included)',
        requestBody: body(LinkInput),
        responses: { '201': ok('The link', FileLinkRecord), ...errors(401, 404, 415, 422) },
      },
      delete: {
        operationId: 'revokeFileLinks',
        tags,
        summary: 'Revoke every link of this version (rotates its link nonce)',
        responses: { '204': ok('Revoked'), ...errors(401, 404) },
      },
    },
  };
};
