// /silo/v1/events: the caller's chain of the event log and its verification (docs/api.md, Events).
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { EVENT_TYPES } from '../events/catalogue';
import { ChainVerdict, EventList, eventListQuery } from '../schemas/events';
import { errors, ok, type DocLimits } from './shared';

const tags = ['Events'];

/** The catalogue as the operation's description: every type with what its data holds. */
const catalogue = Object.entries(EVENT_TYPES)
  .map(([type, what]) => `- \`${type}\`: ${what}`)
  .join('\n');

export const eventPaths = (l: DocLimits): ZodOpenApiPathsObject => ({
  '/silo/v1/events': {
    get: {
      operationId: 'listEvents',
      tags,
      summary: "The caller's chain of the event log (its workspace and environment), oldest first or newest first",
      description: `Every change writes one record in the change's own transaction. Keyset pages by seq: oldest first with ?after=, newest first (?order=desc) with ?before=; next_cursor is the last seq of the page. Types:\n\n${catalogue}`,
      requestParams: { query: eventListQuery(l.maxListLimit) },
      responses: { '200': ok('A page of records', EventList), ...errors(401, 422) },
    },
  },
  '/silo/v1/events/verify': {
    get: {
      operationId: 'verifyEvents',
      tags,
      summary: "Recomputes the caller's chain: every seq, prev_hash and hash",
      responses: { '200': ok('The verdict (ok: false names the first bad record)', ChainVerdict), ...errors(401) },
    },
  },
});
