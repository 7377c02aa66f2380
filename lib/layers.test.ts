// Dependencies point one way (ARCHITECTURE.md, "The layers"): every import of the app's own code
// goes from a layer to the same layer or a lower one, the domains never import each other, and
// product code never imports test code. Imports are read from the source text, so a new file is
// checked without listing it, and a file no layer places fails.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '..');

/** Lowest first. A module's layer is the first prefix that matches its path. */
const LAYERS: [layer: string, prefixes: string[]][] = [
  [
    'base',
    [
      'lib/schemas/',
      'lib/invoices/',
      'lib/address-list.ts',
      'lib/must.ts',
      'lib/coalesced.ts',
      'lib/sized-lru.ts',
      'lib/owned-buffer.ts',
      'lib/secret-file.ts',
      'lib/kept-setup-token.ts',
      'lib/request-load.mjs',
    ],
  ],
  ['config', ['lib/config.ts']],
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

  it('reads process.env only in lib/config.ts (and the scripts that start processes)', () => {
    const readers = files.filter(
      (f) => f.startsWith('lib/') && f !== 'lib/config.ts' && /process\.env\b/.test(readFileSync(path.join(ROOT, f), 'utf8')),
    );
    expect(readers).toEqual([]);
  });
});
