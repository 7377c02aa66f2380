// Dependencies point one way (ARCHITECTURE.md, "The layers"): every import of the app's own code
// goes from a layer to the same layer or a lower one, the domains never import each other, and
// product code never imports test code. Imports are read from the source text, so a new file is
// checked without listing it, and a file no layer places fails.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from './config';

const ROOT = path.resolve(__dirname, '..');

/** Lowest first. A module's layer is the first prefix that matches its path. */
const LAYERS: [layer: string, prefixes: string[]][] = [
  [
    'base',
    [
      'lib/schemas/',
      'lib/invoices/',
      'lib/address-list.mjs',
      'lib/must.ts',
      'lib/coalesced.ts',
      'lib/owned-buffer.ts',
      'lib/secret-file.ts',
      'lib/kept-setup-token.ts',
      'lib/request-load.mjs',
      'lib/metrics.mjs',
    ],
  ],
  ['config', ['lib/config.ts', 'lib/process-settings.mjs']],
  ['log and errors', ['lib/log.ts', 'lib/errors.ts']],
  ['db and storage', ['lib/db/', 'lib/storage/']],
  ['event log', ['lib/events/']],
  ['domain', ['lib/access/', 'lib/silo/', 'lib/webhooks/']],
  ['edge', ['lib/http/', 'lib/openapi/', 'lib/console/', 'lib/startup.ts']],
  ['app', ['app/', 'pages/', 'components/', 'instrumentation.ts', 'scripts/']],
];

/** Test code: tests, their helpers and suites. It may import anything; product code imports none of it. */
const TEST_CODE = [/\.test\.tsx?$/, /^lib\/testing\//, /^e2e\//, /^bench\//];
/** A module that imports a test runner is test code wherever it lives (lib/storage/store-suite.ts). */
const TEST_RUNNER = /(?:^|\n)\s*import[^'"`;]*?from\s*['"](?:vitest|@playwright\/test)['"]/;
/** Generated code, placed (in lib/db) but not read. */
const GENERATED = /^lib\/db\/generated\//;

/** Pairs of one layer that must not import each other. */
const APART: [string, string][] = [
  ['lib/access/', 'lib/silo/'],
  // The webhooks read the event log; they act on neither domain, and neither domain knows them.
  ['lib/access/', 'lib/webhooks/'],
  ['lib/silo/', 'lib/webhooks/'],
];

/** A module's layer; a declaration file (`x.d.mts`) is its module's (`x.mjs`). */
const layerOf = (file: string): number => {
  const module = file.replace(/\.d\.mts$/, '.mjs');
  return LAYERS.findIndex(([, prefixes]) => prefixes.some((p) => module.startsWith(p)));
};
const text = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');
const isTestCode = (file: string): boolean => TEST_CODE.some((re) => re.test(file)) || TEST_RUNNER.test(text(file));

/** Every source file of the app, test code included, generated code left out. */
function allSources(): string[] {
  const out: string[] = [];
  for (const dir of ['lib', 'app', 'pages', 'components', 'scripts']) {
    for (const d of readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })) {
      if (!d.isFile() || !/\.(ts|tsx|mts|mjs|js|cjs)$/.test(d.name)) continue;
      out.push(path.relative(ROOT, path.join(d.parentPath, d.name)));
    }
  }
  return [...out, 'instrumentation.ts'].filter((f) => !GENERATED.test(f));
}

/** The repository paths a module imports (relative or `@/` specifiers, side-effect imports too), unresolved. */
function importsOf(file: string): string[] {
  const source = text(file);
  const specs = [
    ...source.matchAll(/(?:^|\n)\s*(?:import|export)[^'"`;]*?from\s*['"]([^'"]+)['"]/g),
    ...source.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g),
    ...source.matchAll(/\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]);
  return specs
    .map((s) =>
      s.startsWith('@/') ? s.slice(2) : s.startsWith('.') ? path.relative(ROOT, path.resolve(ROOT, path.dirname(file), s)) : null,
    )
    .filter((s): s is string => s !== null);
}

/** The file an import path names, as TypeScript and Node find it (`../config` → `lib/config.ts`), or undefined. */
function resolved(p: string): string | undefined {
  const isFile = (f: string) => existsSync(path.join(ROOT, f)) && statSync(path.join(ROOT, f)).isFile();
  return [p, `${p}.ts`, `${p}.tsx`, `${p}/index.ts`, `${p}/index.tsx`].find(isFile);
}

describe('dependencies point one way', () => {
  const all = allSources();
  const files = all.filter((f) => !isTestCode(f));

  it('places every module in a layer', () => {
    expect(files.filter((f) => layerOf(f) < 0)).toEqual([]);
  });

  it('finds the file of every import', () => {
    const lost = all.flatMap((file) =>
      importsOf(file)
        .filter((t) => !resolved(t))
        .map((t) => `${file} → ${t}`),
    );
    expect(lost).toEqual([]);
  });

  it('imports no test code into product code', () => {
    const against: string[] = [];
    for (const file of files) {
      for (const target of importsOf(file).map(resolved)) if (target && isTestCode(target)) against.push(`${file} → ${target}`);
    }
    expect(against).toEqual([]);
  });

  it('imports nothing from a higher layer, nor from outside the layers', () => {
    const against: string[] = [];
    for (const file of files) {
      for (const target of importsOf(file).map(resolved)) {
        if (!target || isTestCode(target)) continue; // the two tests above
        const [from, to] = [layerOf(file), layerOf(target)];
        if (to < 0 || to > from) against.push(`${file} → ${target} (${LAYERS[from][0]} → ${LAYERS[to]?.[0] ?? 'no layer'})`);
      }
    }
    expect(against).toEqual([]);
  });

  it('keeps the domains apart', () => {
    const against: string[] = [];
    for (const file of files) {
      for (const [a, b] of APART) {
        for (const target of importsOf(file).map((t) => resolved(t) ?? t)) {
          if ((file.startsWith(a) && target.startsWith(b)) || (file.startsWith(b) && target.startsWith(a)))
            against.push(`${file} → ${target}`);
        }
      }
    }
    expect(against).toEqual([]);
  });
});

/** The modules that read the app's own variables: config.ts's schema, and the settings it re-exports. */
const CONFIG_READERS = ['lib/config.ts', 'lib/process-settings.mjs'];

/** Variables another tool reads, each touched by one module of ours for the reason given. */
const OTHER_TOOLS: Record<string, [file: string, why: string]> = {
  NEXT_RUNTIME: ['instrumentation.ts', 'Next sets it per runtime and compiles the check away: read as written, before any import'],
  UV_THREADPOOL_SIZE: ['scripts/threadpool.mjs', "libuv's: given a default before anything can start the thread pool"],
  AUTH_TRUST_HOST: ['scripts/serve.mjs', "next-auth's: the server trusts the request's host unless the operator says otherwise"],
  PRISMA_SCHEMA_ENGINE_BINARY: ['scripts/generate-client.mjs', "Prisma's CLI: pointed at node unless set"],
};
// Variables only handed to a child process (`{ ...process.env, NAME: … }`) are not read here:
// NEXT_TELEMETRY_DISABLED (Next's build and server, scripts/build.mjs and start.mjs),
// REDOCLY_TELEMETRY and REDOCLY_SUPPRESS_UPDATE_NOTICE (scripts/lint-openapi.ts).

const code = (file: string): string =>
  text(file)
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');

/** The variables a module reads by name, and whether it reads the environment whole. */
function envReads(file: string): { names: string[]; whole: boolean } {
  const source = code(file);
  const names = [...source.matchAll(/process\.env(?:\.([A-Za-z_]\w*)|\[\s*['"]([^'"]+)['"]\s*\])/g)].map((m) => m[1] ?? m[2]);
  // Anything else but handing the whole environment on to a child (`...process.env`).
  const whole = [...source.matchAll(/(\.\.\.\s*)?process\.env\b(?!\s*(?:\.[A-Za-z_]|\[\s*['"]))/g)].some((m) => !m[1]);
  return { names: [...new Set(file === 'lib/config.ts' ? [...names, ...CONFIG_VARIABLES] : names)], whole };
}

describe('one reader per environment variable', () => {
  const files = [...allSources().filter((f) => !isTestCode(f)), 'next.config.js', 'prisma.config.ts'];
  const readers = new Map<string, string[]>();
  const whole: string[] = [];
  for (const file of files) {
    const r = envReads(file);
    for (const name of r.names) readers.set(name, [...(readers.get(name) ?? []), file]);
    if (r.whole) whole.push(file);
  }

  it('reads the whole environment only in lib/config.ts (its schema)', () => {
    expect(whole).toEqual(['lib/config.ts']);
  });

  it('reads each variable in one module', () => {
    expect([...readers].filter(([, by]) => by.length > 1)).toEqual([]);
    // the reads are seen: the server's settings, config's schema, a switch of config.ts's own
    expect(readers.get('PORT')).toEqual(['lib/process-settings.mjs']);
    expect(readers.get('DATABASE_URL')).toEqual(['lib/config.ts']);
    expect(readers.get('SILO_READ_CACHE')).toEqual(['lib/config.ts']);
  });

  it("reads the app's variables through lib/config.ts, scripts included; another tool's only where listed", () => {
    const against = [...readers].flatMap(([name, by]) =>
      by.filter((f) => !CONFIG_READERS.includes(f) && OTHER_TOOLS[name]?.[0] !== f).map((f) => `${f} reads ${name}`),
    );
    expect(against).toEqual([]);
    const unused = Object.entries(OTHER_TOOLS).filter(([name, [file]]) => !readers.get(name)?.includes(file));
    expect(unused).toEqual([]);
  });
});
