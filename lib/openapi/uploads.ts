// The byte paths of an upload: a placeholder's data with Bearer credentials, and the signed url.
import type { ZodOpenApiPathsObject, oas31 } from 'zod-openapi';
import { z } from 'zod';
import { FileAtUrl, FileRecord } from '../schemas/files';
import { ENTRY_ID, FILE_ID, OPTIONAL_AUTH, bytes, errors, ok, rawBody } from './shared';

const tags = ['Uploads'];
const held = ok('A chunk was held (Upload-Offset says how many bytes)');
const offset = ok('Upload-Offset (bytes held) and Upload-Length');
const RAW = 'The raw bytes; Content-Range to send a part or resume';
const NOT_MODIFIED = ok('Not modified (If-None-Match names the ETag)');

// Declared on each operation, not on the path: Scalar shows an operation's own parameters only.
const SIG = {
  name: 'sig',
  in: 'query',
  description: "The signature of the file's signed url (the url as the file record gives it)",
  schema: { type: 'string' },
} satisfies oas31.ParameterObject;
const EXPIRES = {
  name: 'expires',
  in: 'query',
  description: 'A link: its expiry, Unix seconds (signed with it)',
  schema: { type: 'string' },
} satisfies oas31.ParameterObject;
const LINK = {
  name: 'link',
  in: 'query',
  description: 'A link (POST …/files/{id}/links): its signature, with expires instead of sig; GET/HEAD only',
  schema: { type: 'string' },
} satisfies oas31.ParameterObject;
/** A read takes the signed url (sig) or a link (expires + link). */
const READ = [SIG, EXPIRES, LINK];
const DOWNLOAD = {
  name: 'download',
  in: 'query',
  description: '1: sent as an attachment (Content-Disposition)',
  schema: { type: 'string', enum: ['1'] },
} satisfies oas31.ParameterObject;

export const uploadPaths = (): ZodOpenApiPathsObject => ({
  '/silo/v1/entries/{entry_id}/files/{id}/data': {
    parameters: [ENTRY_ID, FILE_ID],
    put: {
      operationId: 'uploadFileData',
      tags,
      summary: "Upload a placeholder's bytes with Bearer credentials",
      requestBody: rawBody(RAW),
      responses: { '200': ok('Stored', FileRecord), '204': held, ...errors(401, 403, 404, 408, 409, 413, 422) },
    },
    head: {
      operationId: 'getFileDataOffset',
      tags,
      summary: 'How many bytes of a placeholder are held, for a resume',
      responses: { '204': offset, ...errors(401, 404, 409) },
    },
  },
  '/silo/v1/files/{id}': {
    parameters: [FILE_ID],
    put: {
      operationId: 'uploadToFileUrl',
      tags,
      summary: 'The signed upload url: PUT the raw bytes (to a stored file they are compared)',
      description:
        "The url of a placeholder is the upload capability: no other credential. A stored private file needs its owner's credentials.",
      security: OPTIONAL_AUTH,
      parameters: [SIG],
      requestBody: rawBody(RAW),
      responses: {
        '200': ok(
          "Stored: the full record to the owner's credentials; to the holder of the url alone only what GET of the url tells",
          z.union([FileRecord, FileAtUrl]),
        ),
        '204': held,
        ...errors(401, 403, 404, 408, 409, 413, 422),
      },
    },
    head: {
      operationId: 'headFileUrl',
      tags,
      summary: 'Upload-Offset of a placeholder, or the headers of a stored file (private files need credentials, or a link)',
      security: OPTIONAL_AUTH,
      parameters: READ,
      responses: { '204': offset, '200': ok('Stored file headers'), '304': NOT_MODIFIED, ...errors(401, 403, 404, 409) },
    },
    get: {
      operationId: 'getFileUrl',
      tags,
      summary: 'The bytes of a stored file (private files need credentials, or a link)',
      description:
        'With expires + link: no credentials, private files included; 403 link_expired after expiry, 403 forbidden once revoked.',
      security: OPTIONAL_AUTH,
      parameters: [...READ, DOWNLOAD],
      responses: {
        '200': bytes('The bytes'),
        '206': bytes('A range'),
        '304': NOT_MODIFIED,
        ...errors(401, 403, 404, 409, 416),
      },
    },
  },
});
