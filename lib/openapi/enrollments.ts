// /admin/v1/enrollments: an application acting for one owner in one environment.
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { EnrollmentList, EnrollmentRecord, EnrollmentUpdate } from '../schemas/access';
import { pageParams } from './entries';
import { body, errors, ok, uuidParam, type DocLimits } from './shared';

const tags = ['Enrollments'];

export const enrollmentPaths = (l: DocLimits): ZodOpenApiPathsObject => ({
  '/admin/v1/enrollments': {
    get: {
      operationId: 'listEnrollments',
      tags,
      summary: "List enrollments (members see their workspaces')",
      parameters: [
        ...pageParams(l),
        { name: 'owner_id', in: 'query', description: "Only this owner's enrollments", schema: { type: 'string', format: 'uuid' } },
        { name: 'app_id', in: 'query', description: "Only this app's enrollments", schema: { type: 'string', format: 'uuid' } },
      ],
      responses: { '200': ok('Enrollments', EnrollmentList), ...errors(401, 403, 422) },
    },
  },
  '/admin/v1/enrollments/{id}': {
    parameters: [uuidParam('id', 'The enrollment id')],
    patch: {
      operationId: 'updateEnrollment',
      tags,
      summary: 'Disable or enable (at once, tokens included)',
      requestBody: body(EnrollmentUpdate),
      responses: { '200': ok('Updated', EnrollmentRecord), ...errors(401, 403, 404, 415, 422) },
    },
  },
});
