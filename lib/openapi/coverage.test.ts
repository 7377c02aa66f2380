// Every method a route answers has an operation in the OpenAPI document. The methods are asked of
// the routes themselves (their 405/OPTIONS answers name them in Allow), so nothing is listed twice.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from './document';

const ROOT = path.resolve(__dirname, '../..');
/** Only the API services are documented; next-auth and /openapi.json are not part of the API. */
const SERVICE = /^\/(access|silo|utils|admin)\//;

interface RouteMethods {
  file: string;
  path: string;
  methods: string[];
}

function filesUnder(dir: string, match: (name: string) => boolean): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && match(d.name))
    .map((d) => path.relative(ROOT, path.join(d.parentPath, d.name)));
}

/** `app/silo/v1/entries/[entry_id]/route.ts` → `/silo/v1/entries/{entry_id}` (route groups dropped). */
function apiPathOf(segments: string[]): string {
  const kept = segments.filter((s) => !/^\(.*\)$/.test(s) && s !== 'index');
  return `/${kept.join('/')}`.replace(/\[(?:\.\.\.)?([^\]]+)\]/g, '{$1}').replace(/:([A-Za-z_]+)/g, '{$1}');
}

/** What a route answers: App Router routes list it in OPTIONS's Allow. */
async function appRoutes(): Promise<RouteMethods[]> {
  const out: RouteMethods[] = [];
  for (const file of filesUnder('app', (n) => n === 'route.ts')) {
    const apiPath = apiPathOf(path.dirname(file).split(path.sep).slice(1));
    if (!SERVICE.test(apiPath)) continue;
    const mod = await import(path.join(ROOT, file));
    const res: Response = await mod.OPTIONS(new Request(`http://localhost${apiPath}`, { method: 'OPTIONS' }), {});
    out.push({ file, path: apiPath, methods: (res.headers.get('allow') ?? '').split(/,\s*/).filter(Boolean) });
  }
  return out;
}

/** A Pages Router API route's URL: the source of the rewrite to it, else its own path without /api. */
async function pagesPathOf(file: string): Promise<string> {
  const route = `/${file
    .replace(/\.tsx?$/, '')
    .split(path.sep)
    .slice(1)
    .join('/')}`; // /api/…
  const config = (await import(path.join(ROOT, 'next.config.js'))).default;
  const rewrites = await config.rewrites();
  const rewrite = (rewrites.beforeFiles ?? []).find((r: { destination: string }) => r.destination.split('?')[0] === route);
  return apiPathOf((rewrite ? rewrite.source : route.replace(/^\/api/, '')).split('/').filter(Boolean));
}

/**
 * What a Pages Router route answers: nodeRoute names it in the Allow of its 405 to OPTIONS, or a
 * route that answers OPTIONS itself (as App Router routes do) in the Allow of its 204.
 */
async function pagesRoutes(): Promise<RouteMethods[]> {
  const out: RouteMethods[] = [];
  for (const file of filesUnder('pages/api', (n) => /\.tsx?$/.test(n))) {
    const apiPath = await pagesPathOf(file);
    if (!SERVICE.test(apiPath)) continue;
    const handler = (await import(path.join(ROOT, file))).default;
    const headers: Record<string, string> = {};
    const req = { method: 'OPTIONS', headers: {}, query: {}, readableEnded: true, destroyed: false };
    const res = {
      statusCode: 200,
      headersSent: false,
      setHeader: (k: string, v: string) => {
        headers[k.toLowerCase()] = String(v);
      },
      end: () => {},
    };
    await handler(req, res);
    expect([204, 405], `${file} answers OPTIONS with 204 or 405`).toContain(res.statusCode);
    out.push({ file, path: apiPath, methods: (headers.allow ?? '').split(/,\s*/).filter(Boolean) });
  }
  return out;
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
  const allRoutes = () => (discovered ??= Promise.all([appRoutes(), pagesRoutes()]).then((a) => a.flat()));

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
