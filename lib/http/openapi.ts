// The OpenAPI 3.1 description, generated from the zod schemas that validate requests.
import { z } from 'zod';
import { createDocument } from 'zod-openapi';
import {
  AppInput, AppList, AuthorizeInput, AuthorizedEnrollment, EnrollmentList, EnrollmentRecord, EnrollmentUpdate,
  KeyInput, NewApiKey, NewAppSecret, NewOwner, OwnerInput, OwnerList, OwnerRecord,
} from '../schemas/access';
import { ErrorSchema } from '../schemas/common';
import { EntryList, EntryRecord, entryInput, entryUpdate } from '../schemas/entries';
import { FileList, FileRecord, fileInput, fileUpdate } from '../schemas/files';
import { limits } from './context';

const JSON_CT = 'application/json';
const body = (schema: z.ZodType) => ({ required: true, content: { [JSON_CT]: { schema } } });
const ok = (description: string, schema?: z.ZodType) => ({ description, ...(schema ? { content: { [JSON_CT]: { schema } } } : {}) });
const errors = (...codes: number[]) =>
  Object.fromEntries(codes.map((c) => [String(c), { description: ERROR_TEXT[c], content: { [JSON_CT]: { schema: ErrorSchema } } }]));
const ERROR_TEXT: Record<number, string> = {
  400: 'Malformed request', 401: 'Missing, unknown or expired credentials', 403: 'Not allowed', 404: 'Not found (or another owner\'s)',
  408: 'No byte arrived for UPLOAD_IDLE_TIMEOUT_SECONDS: the upload ended, its bytes stay held for a resume',
  409: 'Conflict', 413: 'Over a size limit', 415: 'Not JSON', 416: 'Range not satisfiable', 422: 'Invalid', 429: 'Rate limited',
};
const uuidParam = (name: string, description: string) => ({ name, in: 'path' as const, required: true, description, schema: { type: 'string' as const, format: 'uuid' } });
const ENTRY = uuidParam('entry_id', 'Entry id');
const FILE = uuidParam('id', 'File (version) id');
const bearer = [{ bearer: [] }];
const bytes = (description: string) => ({ description, content: { 'application/octet-stream': { schema: { type: 'string' as const, format: 'binary' } } } });

export function openApiDocument() {
  const l = limits();
  const fileIn = fileInput({ maxFileBytes: l.files.maxFileBytes, meta: l.meta });
  const entryIn = entryInput(l.meta);
  const fileWrite = {
    requestBody: body(fileIn),
    security: bearer,
    responses: { '201': ok('Created: the file record (a placeholder has stored: false and an upload url)', FileRecord), ...errors(400, 401, 404, 409, 413, 415, 422) },
  };
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Silo API',
      version: '1.0.0',
      description: 'Entries and their files: inline base64 or a placeholder followed by a streamed, checksum-verified upload; versions on replacement. Errors are always {code, key, message, fields?}.',
    },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Owner API key or enrollment token' } } },
    paths: {
      '/utils/v1/ping': { get: { summary: 'Ping', responses: { '200': ok('pong', z.object({ ping: z.literal('pong') })) } } },
      '/utils/v1/ready': { get: { summary: 'Readiness: database and blob store', responses: { '200': ok('ready'), ...errors() } } },
      '/access/v1/enrollment/authorize': {
        post: {
          summary: 'Authorize an application to act for an enrollment',
          description: 'Client credentials in the body or as HTTP Basic. With owner_id: a trusted app, or the owner\'s API key as Bearer / X-Owner-Key.',
          requestBody: body(AuthorizeInput),
          responses: { '200': ok('The enrollment with a fresh token', AuthorizedEnrollment), ...errors(401, 403, 404, 415, 422, 429) },
        },
      },
      '/silo/v1/entries': {
        get: {
          summary: 'List entries, newest first',
          security: bearer,
          parameters: [
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: l.maxListLimit, default: 20 } },
            { name: 'cursor', in: 'query', schema: { type: 'string' } },
            { name: 'folder', in: 'query', schema: { type: 'string' } },
            { name: 'key', in: 'query', schema: { type: 'string' } },
          ],
          responses: { '200': ok('A page of entries', EntryList), ...errors(401, 422) },
        },
        post: { summary: 'Create an entry', security: bearer, requestBody: body(entryIn), responses: { '201': ok('Created', EntryRecord), ...errors(401, 409, 415, 422) } },
      },
      '/silo/v1/entries/{entry_id}': {
        parameters: [ENTRY],
        get: { summary: 'An entry with its current files (attachments)', security: bearer, responses: { '200': ok('The entry', EntryRecord), ...errors(401, 404) } },
        put: { summary: 'Create an entry with the caller\'s id (idempotent)', security: bearer, requestBody: body(entryIn), responses: { '201': ok('Created', EntryRecord), '200': ok('The same request again', EntryRecord), ...errors(401, 409, 415, 422) } },
        patch: { summary: 'Update name, folder, key or meta', security: bearer, requestBody: body(entryUpdate(l.meta)), responses: { '200': ok('Updated', EntryRecord), ...errors(401, 404, 409, 422) } },
        delete: { summary: 'Delete the entry with all its files', security: bearer, responses: { '204': ok('Deleted'), ...errors(401, 404) } },
      },
      '/silo/v1/entries/{entry_id}/files': {
        parameters: [ENTRY],
        get: { summary: 'Current files, each with its previous versions', security: bearer, responses: { '200': ok('Files', FileList), ...errors(401, 404) } },
        post: { summary: 'Upload a file (inline data) or create a placeholder', ...fileWrite },
      },
      '/silo/v1/entries/{entry_id}/files/{id}': {
        parameters: [ENTRY, FILE],
        put: { summary: 'Upload a file with the caller\'s id (safe to retry)', ...fileWrite, responses: { ...fileWrite.responses, '200': ok('The same request again', FileRecord) } },
        get: { summary: 'Fetch the bytes (Range, If-None-Match supported)', security: bearer, responses: { '200': bytes('The bytes'), '206': bytes('A range'), '304': ok('Not modified'), ...errors(401, 404, 409, 416) } },
        patch: { summary: 'Update desc, meta, private, embeddable (no new version)', security: bearer, requestBody: body(fileUpdate({ maxFileBytes: 0, meta: l.meta })), responses: { '200': ok('Updated', FileRecord), ...errors(401, 404, 422) } },
        delete: { summary: 'Delete: a current file with its history, an earlier version alone', security: bearer, responses: { '204': ok('Deleted'), ...errors(401, 404) } },
      },
      '/silo/v1/entries/{entry_id}/files/{id}/restore': {
        parameters: [ENTRY, FILE],
        post: { summary: 'Make this version\'s bytes the new current version', security: bearer, responses: { '201': ok('The new current version', FileRecord), ...errors(401, 404, 409) } },
      },
      '/silo/v1/entries/{entry_id}/files/{id}/data': {
        parameters: [ENTRY, FILE],
        put: { summary: 'Upload a placeholder\'s bytes with Bearer credentials', security: bearer, requestBody: { content: { '*/*': { schema: { type: 'string', format: 'binary' } } } }, responses: { '200': ok('Stored', FileRecord), '204': ok('A chunk was held (Upload-Offset)'), ...errors(401, 403, 404, 408, 409, 413, 422) } },
      },
      '/silo/v1/files/{id}': {
        parameters: [FILE, { name: 'sig', in: 'query', required: true, schema: { type: 'string' } }],
        put: { summary: 'The signed upload url: PUT the raw bytes (Content-Range to resume); to a stored file, compared (private files need credentials)', requestBody: { content: { '*/*': { schema: { type: 'string', format: 'binary' } } } }, responses: { '200': ok('Stored', FileRecord), '204': ok('A chunk was held (Upload-Offset)'), ...errors(401, 403, 404, 408, 409, 413, 422) } },
        head: { summary: 'Upload-Offset of a placeholder, or the headers of a stored file (private files need credentials)', responses: { '204': ok('Upload-Offset and Upload-Length'), '200': ok('Stored file headers'), ...errors(401, 403, 404) } },
        get: { summary: 'The bytes of a stored file (private files need credentials)', responses: { '200': bytes('The bytes'), '206': bytes('A range'), ...errors(401, 404, 409, 416) } },
      },
      '/admin/v1/owners': {
        get: { summary: 'List workspaces', security: bearer, responses: { '200': ok('Owners', OwnerList), ...errors(401, 403) } },
        post: { summary: 'Create a workspace with a live and a sandbox key (shown once)', security: bearer, requestBody: body(OwnerInput), responses: { '201': ok('Created', NewOwner), ...errors(401, 403, 422) } },
      },
      '/admin/v1/owners/{id}': { parameters: [uuidParam('id', 'Owner id')], get: { summary: 'A workspace and its keys (prefixes only)', security: bearer, responses: { '200': ok('Owner', OwnerRecord), ...errors(401, 403, 404) } } },
      '/admin/v1/owners/{id}/keys': { parameters: [uuidParam('id', 'Owner id')], post: { summary: 'A new API key (shown once)', security: bearer, requestBody: body(KeyInput), responses: { '201': ok('Created', NewApiKey), ...errors(401, 403, 404) } } },
      '/admin/v1/owners/{id}/keys/{key_id}': { parameters: [uuidParam('id', 'Owner id'), uuidParam('key_id', 'Key id')], delete: { summary: 'Revoke a key at once', security: bearer, responses: { '204': ok('Revoked'), ...errors(401, 403, 404) } } },
      '/admin/v1/apps': {
        get: { summary: 'List applications', security: bearer, responses: { '200': ok('Apps', AppList), ...errors(401, 403) } },
        post: { summary: 'Register an application (secret shown once)', security: bearer, requestBody: body(AppInput), responses: { '201': ok('Created', NewAppSecret), ...errors(401, 403, 422) } },
      },
      '/admin/v1/apps/{id}/secret': { parameters: [uuidParam('id', 'App id')], post: { summary: 'Rotate the client secret', security: bearer, responses: { '200': ok('New secret', NewAppSecret), ...errors(401, 403, 404) } } },
      '/admin/v1/enrollments': { get: { summary: 'List enrollments', security: bearer, responses: { '200': ok('Enrollments', EnrollmentList), ...errors(401, 403) } } },
      '/admin/v1/enrollments/{id}': { parameters: [uuidParam('id', 'Enrollment id')], patch: { summary: 'Disable or enable (at once, tokens included)', security: bearer, requestBody: body(EnrollmentUpdate), responses: { '200': ok('Updated', EnrollmentRecord), ...errors(401, 403, 404) } } },
    },
  });
}
