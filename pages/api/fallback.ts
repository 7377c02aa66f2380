// Whatever API-shaped path no route answered, with any method: an unknown service or version, or an
// unknown path.
import { ApiError } from '@/lib/errors';
import { everyMethod } from '@/lib/http/node-route';

export const config = { api: { bodyParser: false, externalResolver: true } };

const SERVICES: Record<string, string[]> = { access: ['v1'], silo: ['v1'], utils: ['v1'], admin: ['v1'] };

const notFound = async (_req: unknown, _res: unknown, ctx: { query: Record<string, string | undefined> }) => {
  const { service = '', version = '' } = ctx.query;
  if (!SERVICES[service]?.includes(version))
    throw new ApiError(
      'unknown_version',
      `There is no service ${service}/${version}; this instance serves ${Object.entries(SERVICES)
        .map(([s, v]) => `${s}/${v.join(',')}`)
        .join(' ')}`,
    );
  throw new ApiError('not_found', 'No such path');
};

export default everyMethod(notFound);
