// Every method a route answers has an operation in the OpenAPI document. The methods are those of
// the route table (scripts/route-table.mjs: what each route file exports), so nothing is listed twice.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deriveRoutes } from '../../scripts/route-table.mjs';
import { openApiDocument } from './document';

const ROOT = path.resolve(__dirname, '../..');
/** Only the API services are documented; next-auth and /openapi.json are not part of the API. */
const SERVICE = /^\/(access|silo|utils|admin)\//;

interface RouteMethods {
  file: string;
  path: string;
  methods: string[];
}

/** `app/silo/v1/entries/[entry_id]/route.ts` → `/silo/v1/entries/{entry_id}` (route groups dropped). */
function apiPathOf(segments: string[]): string {
  const kept = segments.filter((s) => !/^\(.*\)$/.test(s) && s !== 'index');
  return `/${kept.join('/')}`.replace(/\[(?:\.\.\.)?([^\]]+)\]/g, '{$1}').replace(/:([A-Za-z_]+)/g, '{$1}');
}

/** The API's routes at their public paths (a Pages route at the path its rewrite serves, not under /api). */
async function serviceRoutes(): Promise<RouteMethods[]> {
  return (await deriveRoutes(ROOT))
    .map((r) => ({ file: r.file, path: apiPathOf(r.pattern.split('/').filter(Boolean)), methods: r.methods }))
    .filter((r) => SERVICE.test(r.path));
}

type Paths = Record<string, Record<string, unknown>>;

/** `METHOD path (file)` for every answered method without an operation; HEAD is covered by GET. */
function undocumented(routes: RouteMethods[], paths: Paths): string[] {
  const missing: string[] = [];
  for (const r of routes)
    for (const m of r.methods) {
      if (m === 'OPTIONS') continue;
      const item = paths[r.path] ?? {};
      const documented = !!item[m.toLowerCase()] || (m === 'HEAD' && !!item.get);
      if (!documented) missing.push(`${m} ${r.path} (${r.file})`);
    }
  return missing;
}

describe('the OpenAPI document covers every route', () => {
  const paths = (openApiDocument() as unknown as { paths: Paths }).paths;
  let discovered: Promise<RouteMethods[]> | undefined;
  const allRoutes = () => (discovered ??= serviceRoutes());

  it('reports a method without an operation', () => {
    const routes = [{ file: 'x', path: '/silo/v1/entries', methods: ['GET', 'HEAD', 'OPTIONS', 'TRACE'] }];
    expect(undocumented(routes, paths)).toEqual(['TRACE /silo/v1/entries (x)']);
    expect(undocumented([{ file: 'y', path: '/nowhere', methods: ['HEAD'] }], paths)).toEqual(['HEAD /nowhere (y)']);
  });

  it('derives paths from files', () => {
    expect(apiPathOf(['silo', 'v1', 'entries', '[entry_id]', 'files', '[id]'])).toBe('/silo/v1/entries/{entry_id}/files/{id}');
    expect(apiPathOf(['(console)', 'admin', 'v1', 'users'])).toBe('/admin/v1/users');
    expect(apiPathOf(['silo', 'v1', 'files', ':id'])).toBe('/silo/v1/files/{id}');
  });

  it('every method of every App Router and Pages Router route has an operation', async () => {
    const routes = await allRoutes();
    // The discovery itself must find the routes, or this test could pass on nothing.
    expect(routes.map((r) => r.path)).toEqual(expect.arrayContaining(['/silo/v1/entries', '/silo/v1/files/{id}', '/admin/v1/users/{id}']));
    expect(routes.every((r) => r.methods.length > 0)).toBe(true);
    expect(undocumented(routes, paths)).toEqual([]);
  });

  it('documents no path that no route answers', async () => {
    const routes = await allRoutes();
    const served = new Set(routes.map((r) => r.path));
    expect(Object.keys(paths).filter((p) => !served.has(p))).toEqual([]);
  });
});
