// Pieces every operation file uses: bodies, responses, the error answers, path ids, security.
import type { z } from 'zod';
import type { ZodOpenApiResponseObject, ZodOpenApiResponsesObject, oas31 } from 'zod-openapi';
import type { limits } from '../http/context';
import { ErrorSchema } from '../schemas/common';

/** The limits the document shows (list sizes, meta), as the server is configured. */
export type DocLimits = ReturnType<typeof limits>;

const JSON_TYPE = 'application/json';
const BINARY = { type: 'string' as const, format: 'binary' };

export const body = (schema: z.ZodType) => ({ required: true, content: { [JSON_TYPE]: { schema } } });
export const rawBody = (description: string) => ({ required: true, description, content: { '*/*': { schema: BINARY } } });

export const ok = (description: string, schema?: z.ZodType): ZodOpenApiResponseObject => ({
  description,
  ...(schema ? { content: { [JSON_TYPE]: { schema } } } : {}),
});
export const bytes = (description: string): ZodOpenApiResponseObject => ({
  description,
  content: { 'application/octet-stream': { schema: BINARY } },
});

const ERROR_TEXT: Record<number, string> = {
  400: 'Malformed request',
  401: 'Missing, unknown or expired credentials',
  403: 'Not allowed',
  404: "Not found (or another owner's)",
  408: 'No byte arrived for UPLOAD_IDLE_TIMEOUT_SECONDS: the upload ended, its bytes stay held for a resume',
  409: 'Conflict',
  410: 'Gone',
  413: 'Over a size limit',
  415: 'Not JSON',
  416: 'Range not satisfiable',
  422: 'Invalid',
  429: 'Rate limited',
  503: 'Not ready',
};

/** The headers an error answer may carry, by status. */
const ERROR_HEADERS: Record<number, Record<string, oas31.HeaderObject>> = {
  409: {
    'Retry-After': {
      description: "With `upload_in_progress`: whole seconds (at least 1) until the running upload's lease lapses",
      schema: { type: 'integer', minimum: 1, example: 5 },
    },
  },
  429: {
    'Retry-After': { description: 'Whole seconds until the rate-limit window ends', schema: { type: 'integer', minimum: 1, example: 5 } },
  },
};

/** The error answers of an operation, each with the contract's error body. */
export const errors = (...codes: number[]): ZodOpenApiResponsesObject =>
  Object.fromEntries(
    codes.map((c) => [
      String(c),
      {
        description: ERROR_TEXT[c],
        ...(ERROR_HEADERS[c] ? { headers: ERROR_HEADERS[c] } : {}),
        content: { [JSON_TYPE]: { schema: ErrorSchema } },
      },
    ]),
  );

export const uuidParam = (name: string, description: string): oas31.ParameterObject => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string', format: 'uuid' },
});
export const ENTRY_ID = uuidParam('entry_id', 'The entry id');
export const FILE_ID = uuidParam('id', 'The file (version) id');

/** Operations anyone may call: no credentials, or the credential is in the request itself. */
export const PUBLIC: [] = [];
/** Anyone may call; some answers (a private file's) need the owner's credentials. */
export const OPTIONAL_AUTH: oas31.SecurityRequirementObject[] = [{}, { bearer: [] }, { session: [] }];

/** A delete's override of governance retention (docs/api.md, Retention). */
export const BYPASS_GOVERNANCE: oas31.ParameterObject = {
  name: 'X-Silo-Bypass-Governance-Retention',
  in: 'header',
  required: false,
  description:
    'true: override governance retention (a console administrator or the admin key only; anyone else 403), recorded as retention.bypassed. Compliance retention and legal holds are never overridden.',
  schema: { type: 'string', enum: ['true', 'false'] },
};

/** A ZIP streamed with its length known first (the export, the backup), saved as `filename`. */
export const zipResponse = (filename: string): ZodOpenApiResponseObject => ({
  description: 'The ZIP',
  headers: {
    'Content-Length': {
      description: 'The whole ZIP, known before the first byte',
      schema: { type: 'integer', minimum: 22, example: 2147483648 },
    },
    'Content-Disposition': { description: `attachment; filename="${filename}"`, schema: { type: 'string' } },
  },
  content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
});
