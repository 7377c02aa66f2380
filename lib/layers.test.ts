// Dependencies point one way (ARCHITECTURE.md, "The layers"): every import of the app's own code
// goes from a layer to the same layer or a lower one, and lib/access and lib/silo never import
// each other. Imports are read from the source text, so a new file is checked without listing it.
import { readdirSync, readFileSync } from 'node:fs';
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

/** Code outside the layers: tests and their helpers may import anything. */
const UNCHECKED = [/\.test\.tsx?$/, /^lib\/testing\//, /^lib\/db\/generated\//, /^e2e\//, /^bench\//];

/** Pairs of one layer that must not import each other. */
const APART: [string, string][] = [['lib/access/', 'lib/silo/']];

const layerOf = (file: string): number => LAYERS.findIndex(([, prefixes]) => prefixes.some((p) => file.startsWith(p)));

function sources(): string[] {
  const out: string[] = [];
  for (const dir of ['lib', 'app', 'pages', 'components', 'scripts']) {
    for (const d of readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })) {
      if (!d.isFile() || !/\.(ts|tsx|mjs)$/.test(d.name)) continue;
      out.push(path.relative(ROOT, path.join(d.parentPath, d.name)));
    }
  }
  return [...out, 'instrumentation.ts'].filter((f) => !UNCHECKED.some((re) => re.test(f)));
}

/** The repository files a module imports (relative or `@/` specifiers), without extension resolution. */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"`;]*?from\s*['"]([^'"]+)['"]/g)].map((m) => m[1]);
  specs.push(...[...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]));
  return specs
    .map((s) =>
      s.startsWith('@/') ? s.slice(2) : s.startsWith('.') ? path.relative(ROOT, path.resolve(ROOT, path.dirname(file), s)) : null,
    )
    .filter((s): s is string => s !== null);
}

/** An import path as a file the layer table can place (`../config` → `lib/config.ts`). */
const asModule = (p: string): string => (/\.(ts|tsx|mjs|js|json|css)$/.test(p) ? p : `${p}.ts`);

describe('dependencies point one way', () => {
  const files = sources();

  it('places every module in a layer', () => {
    expect(files.filter((f) => layerOf(f) < 0)).toEqual([]);
  });

  it('imports nothing from a higher layer', () => {
    const against: string[] = [];
    for (const file of files) {
      for (const target of importsOf(file)) {
        const to = layerOf(asModule(target)) >= 0 ? layerOf(asModule(target)) : layerOf(`${target}/`);
        if (to > layerOf(file)) against.push(`${file} → ${target} (${LAYERS[layerOf(file)][0]} → ${LAYERS[to][0]})`);
      }
    }
    expect(against).toEqual([]);
  });

  it('keeps lib/access and lib/silo apart', () => {
    const against: string[] = [];
    for (const file of files) {
      for (const [a, b] of APART) {
        for (const target of importsOf(file)) {
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
