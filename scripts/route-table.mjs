// The route table: every API route's URL pattern and the methods its file serves, read from the
// files themselves. App Router: the methods a route.ts exports (HEAD with GET, as Next adds it).
// Pages Router: the keys given to nodeRoute(), at the route's own /api path and at the public path
// a beforeFiles rewrite maps to it. scripts/build.mjs writes it beside the build; scripts/serve.mjs
// answers OPTIONS and every unserved method from it before Next runs (docs/design/server.md, Routing).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
export const TABLE_FILE = '.next/silo-routes.json';

/** `GET, HEAD, POST, OPTIONS`: the served methods in one order, and OPTIONS, which every route answers. */
export function allowOf(methods) {
  return METHODS.filter((m) => m === 'OPTIONS' || methods.includes(m)).join(', ');
}

function filesUnder(root, dir, match) {
  if (!existsSync(path.join(root, dir))) return [];
  return readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && match(d.name))
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)).split(path.sep).join('/'))
    .sort();
}

/** The names a module exports, from its syntax; a form that hides them (`export *`) is refused. */
function exportedNames(ts, file, source) {
  const names = [];
  for (const st of source.statements) {
    if (ts.isExportDeclaration(st)) {
      if (!st.exportClause || !ts.isNamedExports(st.exportClause)) throw new Error(`${file}: export * hides which methods it serves`);
      for (const el of st.exportClause.elements) names.push(el.name.text);
      continue;
    }
    const exported = ts.canHaveModifiers(st) && ts.getModifiers(st)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (!exported) continue;
    if (ts.isFunctionDeclaration(st) && st.name) names.push(st.name.text);
    if (ts.isVariableStatement(st))
      for (const decl of st.declarationList.declarations) {
        if (ts.isIdentifier(decl.name)) names.push(decl.name.text);
        else if (ts.isObjectBindingPattern(decl.name))
          for (const el of decl.name.elements) {
            if (el.dotDotDotToken || !ts.isIdentifier(el.name))
              throw new Error(`${file}: a rest or nested binding hides which methods it serves`);
            names.push(el.name.text);
          }
        else throw new Error(`${file}: an array binding hides which methods it serves`);
      }
  }
  return names;
}

/**
 * The methods a Pages Router route serves: the keys of `export default nodeRoute({…})`, or null for
 * `export default everyMethod(…)` (the fallback, which answers every method on any path itself).
 */
function nodeRouteMethods(ts, file, source) {
  for (const st of source.statements) {
    if (!ts.isExportAssignment(st) || st.isExportEquals) continue;
    const call = st.expression;
    if (ts.isCallExpression(call) && ts.isIdentifier(call.expression)) {
      if (call.expression.text === 'everyMethod') return null;
      const [arg] = call.arguments;
      if (call.expression.text === 'nodeRoute' && arg && ts.isObjectLiteralExpression(arg))
        return arg.properties.map((p) => {
          if (!(ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p) || ts.isMethodDeclaration(p)) || !ts.isIdentifier(p.name))
            throw new Error(`${file}: nodeRoute({…}) names each method it serves`);
          return p.name.text;
        });
    }
  }
  throw new Error(`${file}: a Pages API route's default export is nodeRoute({…}) or everyMethod(…)`);
}

/** `app/(x)/silo/v1/entries/[entry_id]/route.ts` → `/silo/v1/entries/[entry_id]`; `pages/api/a/index.ts` → `/api/a`. */
function patternOf(file) {
  const parts = file.replace(/\.tsx?$/, '').split('/');
  const segments = parts[0] === 'app' ? parts.slice(1, -1) : parts.slice(1);
  const kept = segments.filter((s) => !/^\(.*\)$/.test(s) && !(parts[0] === 'pages' && s === 'index'));
  return `/${kept.join('/')}`;
}

/** A pattern with its parameters' names blanked, to pair a rewrite (`:id`) with its file (`[id]`). */
const shapeOf = (pattern) => pattern.replace(/\/:[A-Za-z_]\w*/g, '/[]').replace(/\/\[[^\]/]+\]/g, '/[]');

/**
 * The public paths the beforeFiles rewrites of next.config.js send to each /api path: `{pattern,
 * api}`, where `api` says the rewrite only prefixes the path with /api (the server then does it
 * itself: routeMatcher).
 */
async function rewrittenTo(root) {
  const config = createRequire(path.join(root, 'package.json'))(path.join(root, 'next.config.js'));
  const rewrites = config.rewrites ? await config.rewrites() : [];
  const out = new Map();
  for (const r of Array.isArray(rewrites) ? [] : (rewrites.beforeFiles ?? [])) {
    const to = shapeOf(r.destination.split('?')[0]);
    const served = { pattern: r.source.replace(/\/:([A-Za-z_]\w*)/g, '/[$1]'), api: r.destination === `/api${r.source}` };
    out.set(to, [...(out.get(to) ?? []), served]);
  }
  return out;
}

/**
 * Every API route: `{file, pattern, methods, api?}`, methods in METHODS order, OPTIONS not among
 * them; `api`: a Pages route's public path, which it serves at '/api' + the path.
 */
export async function deriveRoutes(root) {
  const ts = (await import('typescript')).default;
  const parse = (file) =>
    ts.createSourceFile(file, readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const routes = [];
  for (const file of filesUnder(root, 'app', (n) => /^route\.tsx?$/.test(n))) {
    const names = exportedNames(ts, file, parse(file));
    const served = METHODS.filter((m) => names.includes(m) || (m === 'HEAD' && names.includes('GET')));
    routes.push({ file, pattern: patternOf(file), methods: served.filter((m) => m !== 'OPTIONS') });
  }
  const rewrites = await rewrittenTo(root);
  for (const file of filesUnder(root, 'pages/api', (n) => /\.tsx?$/.test(n))) {
    const names = nodeRouteMethods(ts, file, parse(file));
    if (!names) continue;
    const methods = METHODS.filter((m) => m !== 'OPTIONS' && names.includes(m));
    const own = patternOf(file);
    for (const r of rewrites.get(shapeOf(own)) ?? []) routes.push({ file, pattern: r.pattern, methods, ...(r.api ? { api: true } : {}) });
    routes.push({ file, pattern: own, methods });
  }
  return routes;
}

const buildIdOf = (root) => {
  const file = path.join(root, '.next/BUILD_ID');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
};

/** Writes the table beside the build it belongs to (scripts/build.mjs, after `next build`). */
export async function writeRouteTable(root) {
  const table = { build_id: buildIdOf(root), routes: await deriveRoutes(root) };
  writeFileSync(path.join(root, TABLE_FILE), `${JSON.stringify(table, null, 1)}\n`);
}

/** The table written with this build, or, for a build made by `next build` alone, the one the sources give. */
export async function readRouteTable(root) {
  const file = path.join(root, TABLE_FILE);
  const table = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
  return table && table.build_id === buildIdOf(root) ? table.routes : deriveRoutes(root);
}

/**
 * `pathname → {methods, allow, pattern, api} | undefined`: a Map of the paths without parameters, then a
 * walk of a tree of path segments, as Next matches routes (a fixed segment before a parameter, a
 * catch-all last). A served request pays one Map.get, and one per segment where the path has a
 * parameter. An empty segment (a trailing or doubled slash) matches nothing: Next redirects it.
 */
export function routeMatcher(routes) {
  const node = () => ({ fixed: new Map(), param: undefined, rest: undefined, route: undefined });
  const root = node();
  // A path without parameters is one Map.get (Next, too, tries its static routes first).
  const exact = new Map();
  for (const r of routes) {
    const entry = { methods: new Set(r.methods), allow: allowOf(r.methods), pattern: r.pattern, api: r.api === true };
    if (!r.pattern.includes('[') && !exact.has(r.pattern)) exact.set(r.pattern, entry);
    let n = root;
    for (const seg of r.pattern.split('/').slice(1)) {
      if (/^\[\[\.\.\..+\]\]$/.test(seg)) {
        n.route ??= entry;
        n.rest ??= entry;
        n = undefined;
        break;
      }
      if (/^\[\.\.\..+\]$/.test(seg)) {
        n.rest ??= entry;
        n = undefined;
        break;
      }
      if (/^\[.+\]$/.test(seg)) n = n.param ??= node();
      else {
        if (!n.fixed.has(seg)) n.fixed.set(seg, node());
        n = n.fixed.get(seg);
      }
    }
    if (n) n.route ??= entry;
  }
  const walk = (n, segs, i) => {
    if (i === segs.length) return n.route;
    if (segs[i] === '') return undefined;
    const fixed = n.fixed.get(segs[i]);
    const hit = (fixed && walk(fixed, segs, i + 1)) || (n.param && walk(n.param, segs, i + 1));
    return hit || n.rest;
  };
  return (pathname) => {
    const hit = exact.get(pathname);
    if (hit) return hit;
    const segs = pathname.split('/');
    return walk(root, pathname.includes('%') ? segs.map(decodeURIComponent) : segs, 1);
  };
}
