// /admin/v1/setup and /admin/v1/me: the console's first admin and its signed-in user.
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { SetupInput, UserRecord } from '../schemas/users';
import { PUBLIC, body, errors, ok } from './shared';

const tags = ['Console'];

export const consolePaths = (): ZodOpenApiPathsObject => ({
  '/admin/v1/setup': {
    post: {
      operationId: 'completeSetup',
      tags,
      summary: 'Create the first admin with the one-time setup token',
      description: 'The token is printed by the server on its first start; it works once.',
      security: PUBLIC,
      requestBody: body(SetupInput),
      responses: { '201': ok('The first admin', UserRecord), ...errors(403, 413, 415, 422) },
    },
  },
  '/admin/v1/me': {
    get: {
      operationId: 'getMe',
      tags,
      summary: 'The signed-in console user',
      security: [{ session: [] }],
      responses: { '200': ok('The user', UserRecord), ...errors(401, 403) },
    },
  },
});
