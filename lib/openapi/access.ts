// /access/v1: an application authorizes itself to act for an enrollment (docs/api.md, Authorize).
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { AuthorizeInput, AuthorizedEnrollment } from '../schemas/access';
import { PUBLIC, body, errors, ok } from './shared';

export const accessPaths = (): ZodOpenApiPathsObject => ({
  '/access/v1/enrollment/authorize': {
    post: {
      operationId: 'authorizeEnrollment',
      tags: ['Access'],
      summary: 'Authorize an application to act for an enrollment',
      description:
        "Client credentials in the body or as HTTP Basic. With owner_id: a trusted app, the owner's API key as Bearer / X-Owner-Key, or an enabled enrollment of this app and owner in the environment asked for (POST /admin/v1/enrollments).",
      security: PUBLIC,
      requestBody: body(AuthorizeInput),
      responses: { '200': ok('The enrollment with a fresh token', AuthorizedEnrollment), ...errors(401, 403, 404, 415, 422, 429) },
    },
  },
});
