// The Silo-Event header (lib/events/witness.ts) on every successful answer of a write of the silo
// service: the last event record the request appended, which a client keeps as a witness.
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { WITNESS_HEADER } from '../events/witness';

const WRITES = ['post', 'put', 'patch', 'delete'] as const;

const header = {
  description:
    'Present when the request appended event records: the last one, as an RFC 8941 dictionary `chain="<workspace id>/<environment>", seq=N, hash="<hex sha-256>"`. Keep it as a witness for `verify-events --witness` / `verify-export --witness`.',
  schema: { type: 'string' as const, example: 'chain="0b6f…/live", seq=12, hash="9f86d0…"' },
};

/** `paths` with the header added to each silo write's 2xx answers. */
export function withWitnessHeader(paths: ZodOpenApiPathsObject): ZodOpenApiPathsObject {
  for (const [route, item] of Object.entries(paths)) {
    if (!route.startsWith('/silo/')) continue;
    for (const method of WRITES) {
      const responses = item[method]?.responses ?? {};
      for (const [status, response] of Object.entries(responses)) {
        if (!/^2\d\d$/.test(status) || !response || '$ref' in response) continue;
        (response as { headers?: Record<string, unknown> }).headers = {
          ...(response as { headers?: Record<string, unknown> }).headers,
          [WITNESS_HEADER]: header,
        };
      }
    }
  }
  return paths;
}
