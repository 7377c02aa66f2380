// The route table (scripts/route-table.mjs): each route file exports only the methods it serves, the
// table read from the files' syntax says what the modules really export, and a path finds its route
// as Next finds it. e2e/api/routes.spec.ts asks every route of a running server the same.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { allowOf, deriveRoutes, readRouteTable, routeMatcher, writeRouteTable } from '../../scripts/route-table.mjs';
import { route } from './route';

const ROOT = path.resolve(__dirname, '../..');
const ALL = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const table = deriveRoutes(ROOT);

/** The method names a module exports as functions. */
const exportedMethods = (mod: Record<string, unknown>) => ALL.filter((m) => typeof mod[m] === 'function');

describe('every route file exports only the methods it serves', () => {
  it('finds the App Router and Pages Router routes', async () => {
    const files = new Set((await table).map((r) => r.file));
    expect([...files]).toEqual(
      expect.arrayContaining(['app/silo/v1/entries/route.ts', 'app/api/auth/[...nextauth]/route.ts', 'pages/api/silo/v1/files/[id].ts']),
    );
    expect(files.size).toBeGreaterThan(25);
  });

  it('an App Router route exports its methods (not OPTIONS, answered by the server), and the table reads them exactly', async () => {
    const appRoutes = (await table).filter((r) => r.file.startsWith('app/'));
    for (const r of appRoutes) {
      const exported = exportedMethods(await import(path.join(ROOT, r.file)));
      expect(exported, r.file).not.toContain('OPTIONS');
      expect(exported.length, `${r.file} exports every method`).toBeLessThan(ALL.length - 1);
      // Next answers HEAD with GET: the table has HEAD wherever the module has GET.
      expect(r.methods, r.file).toEqual(ALL.filter((m) => exported.includes(m) || (m === 'HEAD' && exported.includes('GET'))));
    }
  });

  it("a Pages Router route's nodeRoute() serves what the table says, at its /api path and at its public one", async () => {
    const pagesRoutes = (await table).filter((r) => r.file.startsWith('pages/'));
    for (const r of pagesRoutes) {
      const handler = (await import(path.join(ROOT, r.file))).default as { methods?: string[] };
      expect(handler.methods, r.file).toEqual(r.methods);
    }
    const patterns = pagesRoutes.map((r) => r.pattern);
    expect(patterns).toEqual(expect.arrayContaining(['/silo/v1/files/[id]', '/api/silo/v1/files/[id]']));
    // The fallback answers every method on any path it is given; it has no entry.
    expect(pagesRoutes.map((r) => r.file)).not.toContain('pages/api/fallback.ts');
  });

  it('route() returns a handler for each method it is given and no other', () => {
    const ok = async () => new Response(null, { status: 204 });
    expect(Object.keys(route({ GET: ok, PATCH: ok }))).toEqual(['GET', 'PATCH']);
  });
});

describe('the table read from syntax', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'route-table-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (file: string, text: string) => {
    mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  };
  write('package.json', '{}');
  write(
    'next.config.js',
    `module.exports = { rewrites: async () => ({ beforeFiles: [
      { source: '/x/v1/files/:id', destination: '/api/x/v1/files/:id' },
      { source: '/x/v2/files/:id', destination: '/api/x/v1/files/:id' },
    ] }) };`,
  );

  it('reads every form of export, and a Pages route at its rewrite too', async () => {
    write('app/(group)/x/v1/a/route.ts', 'export const { GET, POST } = route({});\nexport const dynamic = "force-dynamic";');
    write('app/x/v1/b/[id]/route.ts', 'export async function DELETE() {}\nexport const PUT = h;');
    write('app/x/v1/c/[...rest]/route.ts', 'export { handler as GET, handler as POST };');
    write('pages/api/x/v1/files/[id].ts', 'export default nodeRoute({ GET: read, HEAD: read, PUT });');
    write('pages/api/fallback.ts', 'export default everyMethod(notFound);');
    expect(await deriveRoutes(dir)).toEqual([
      { file: 'app/(group)/x/v1/a/route.ts', pattern: '/x/v1/a', methods: ['GET', 'HEAD', 'POST'] },
      { file: 'app/x/v1/b/[id]/route.ts', pattern: '/x/v1/b/[id]', methods: ['PUT', 'DELETE'] },
      { file: 'app/x/v1/c/[...rest]/route.ts', pattern: '/x/v1/c/[...rest]', methods: ['GET', 'HEAD', 'POST'] },
      // The server sends the first to its /api path itself (api); a rewrite that does more than prefix /api stays Next's.
      { file: 'pages/api/x/v1/files/[id].ts', pattern: '/x/v1/files/[id]', methods: ['GET', 'HEAD', 'PUT'], api: true },
      { file: 'pages/api/x/v1/files/[id].ts', pattern: '/x/v2/files/[id]', methods: ['GET', 'HEAD', 'PUT'] },
      { file: 'pages/api/x/v1/files/[id].ts', pattern: '/api/x/v1/files/[id]', methods: ['GET', 'HEAD', 'PUT'] },
    ]);
  });

  it("every public path of this project's Pages routes is served at '/api' + the path", async () => {
    const publicPaths = (await table).filter((r) => r.file.startsWith('pages/') && !r.pattern.startsWith('/api/'));
    expect(publicPaths.map((r) => r.pattern)).toEqual(expect.arrayContaining(['/silo/v1/entries/[entry_id]/files', '/silo/v1/files/[id]']));
    for (const r of publicPaths) expect(r.api, r.pattern).toBe(true);
    const find = routeMatcher(await table);
    expect(find('/silo/v1/entries/e1/files')?.api).toBe(true);
    expect(find('/api/silo/v1/entries/e1/files')?.api).toBe(false);
    expect(find('/silo/v1/entries')?.api).toBe(false);
  });

  it("the server reads the table written with its build, and the sources' after a build without it", async () => {
    write('app/x/v1/e/route.ts', 'export const { GET } = route({});');
    write('.next/BUILD_ID', 'one');
    await writeRouteTable(dir);
    write('app/x/v1/e/route.ts', 'export const { POST } = route({});');
    const methodsOfE = async () => (await readRouteTable(dir)).find((r) => r.pattern === '/x/v1/e')?.methods;
    expect(await methodsOfE()).toEqual(['GET', 'HEAD']);
    write('.next/BUILD_ID', 'two');
    expect(await methodsOfE()).toEqual(['POST']);
    rmSync(path.join(dir, 'app/x/v1/e'), { recursive: true });
  });

  it('refuses a form that hides the methods', async () => {
    write('app/x/v1/d/route.ts', "export * from './other';");
    await expect(deriveRoutes(dir)).rejects.toThrow(/export \*/);
    write('app/x/v1/d/route.ts', 'export const { ...all } = route({});');
    await expect(deriveRoutes(dir)).rejects.toThrow(/rest/);
    rmSync(path.join(dir, 'app/x/v1/d'), { recursive: true });
    write('pages/api/x/v1/other.ts', 'export default handler;');
    await expect(deriveRoutes(dir)).rejects.toThrow(/nodeRoute/);
  });
});

describe('a path finds its route as Next finds it', () => {
  const find = routeMatcher([
    { file: 'a', pattern: '/s/v1/entries', methods: ['GET', 'HEAD', 'POST'] },
    { file: 'b', pattern: '/s/v1/entries/[id]', methods: ['GET', 'HEAD', 'PATCH'] },
    { file: 'c', pattern: '/s/v1/entries/folders', methods: ['GET', 'HEAD'] },
    { file: 'd', pattern: '/s/v1/entries/[id]/files/[file]', methods: ['PUT'] },
    { file: 'e', pattern: '/api/auth/[...all]', methods: ['GET', 'HEAD', 'POST'] },
    { file: 'f', pattern: '/docs/[[...page]]', methods: ['GET', 'HEAD'] },
  ]);
  const allowAt = (p: string) => find(p)?.allow;

  it('a fixed segment before a parameter, a catch-all last, nothing for an unknown path', () => {
    expect(allowAt('/s/v1/entries')).toBe('GET, HEAD, POST, OPTIONS');
    expect(allowAt('/s/v1/entries/folders')).toBe('GET, HEAD, OPTIONS');
    expect(allowAt('/s/v1/entries/abc')).toBe('GET, HEAD, PATCH, OPTIONS');
    expect(allowAt('/s/v1/entries/folders/files/x')).toBe('PUT, OPTIONS');
    expect(allowAt('/api/auth/callback/credentials')).toBe('GET, HEAD, POST, OPTIONS');
    expect(allowAt('/api/auth')).toBeUndefined();
    expect(allowAt('/docs')).toBe('GET, HEAD, OPTIONS');
    expect(allowAt('/docs/a/b')).toBe('GET, HEAD, OPTIONS');
    for (const p of ['/', '/s/v1', '/s/v1/entries/', '/s/v1//entries', '/s/v1/entries/abc/files', '/s/v1/nothing'])
      expect(allowAt(p), p).toBeUndefined();
  });

  it('a percent-encoded segment is read decoded', () => {
    expect(allowAt('/s/v1/%65ntries')).toBe('GET, HEAD, POST, OPTIONS');
    expect(find('/s/v1/entries/a%20b')?.pattern).toBe('/s/v1/entries/[id]');
  });

  it('Allow lists the served methods in one order, OPTIONS last', () => {
    expect(allowOf(['DELETE', 'GET', 'HEAD'])).toBe('GET, HEAD, DELETE, OPTIONS');
  });
});
