// /silo/v1/events: the caller's chain of the event log and its verification (docs/api.md, Events).
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { EVENT_TYPES } from '../events/catalogue';
import { ChainVerdict, DeletedWorkspaceList, deletedChainsQuery, EventList, eventListQuery } from '../schemas/events';
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
  '/admin/v1/deleted-chains': {
    get: {
      operationId: 'listDeletedChains',
      tags,
      summary: "Deleted workspaces' chains: each one's final head and last record, kept and checked (administrators)",
      description:
        "A workspace's delete takes its chains; the database first keeps each one's final head and its last record. When the delete overrode governance retention (X-Silo-Bypass-Governance-Retention), that record is the live chain's retention.bypassed: who, which workspace, how many versions, the latest retain_until. Newest deletion first, keyset pages.",
      requestParams: { query: deletedChainsQuery(l.maxListLimit) },
      responses: { '200': ok('A page of deleted workspaces', DeletedWorkspaceList), ...errors(401, 403, 422) },
    },
  },
});
