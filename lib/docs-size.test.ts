// The docs stay sized for a newcomer and true to the tree: README.md at most 200 lines and
// ARCHITECTURE.md at most 400, no line of the docs over 200 characters, decision records in their
// shape, every relative link (and its #anchor) pointing at something that exists, every setting the
// code reads in the README's configuration table, and no code comment citing a benchmark session.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '..');
/** This file names what it looks for. */
const SELF = 'lib/docs-size.test.ts';
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const linesOf = (file: string) => read(file).replace(/\n$/, '').split('\n');

/** Markdown files under a folder, as paths from the root. */
function markdownUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith('.md'))
    .map((d) => path.relative(ROOT, path.join(d.parentPath, d.name)))
    .sort();
}

const DOCS = ['README.md', 'ARCHITECTURE.md', ...markdownUnder('docs')];
const LINKED = [...DOCS, 'SECURITY.md', 'CHANGELOG.md', 'bench/RESULTS.md'];

/** Text outside fenced code blocks, line for line. */
const unfenced = (text: string) => text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, (block) => block.replace(/[^\n]/g, ''));
/** …and outside inline code spans: where a link may be. */
const prose = (text: string) => unfenced(text).replace(/`[^`\n]*`/g, '');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of unfenced(read(file)).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n ? `${base}-${n}` : base);
  }
  return anchors;
}

describe('the docs are sized for a newcomer', () => {
  it('README.md is at most 200 lines, ARCHITECTURE.md at most 400', () => {
    expect(linesOf('README.md').length).toBeLessThanOrEqual(200);
    expect(linesOf('ARCHITECTURE.md').length).toBeLessThanOrEqual(400);
  });

  it('no line of README, ARCHITECTURE or docs/ is over 200 characters', () => {
    const long = DOCS.flatMap((f) => linesOf(f).flatMap((l, i) => (l.length > 200 ? [`${f}:${i + 1} (${l.length})`] : [])));
    expect(long).toEqual([]);
  });

  it('each decision record has its context, decision and consequences in 10 to 40 lines', () => {
    const records = readdirSync(path.join(ROOT, 'docs/decisions')).filter((f) => f.endsWith('.md'));
    expect(records.length).toBeGreaterThan(0);
    for (const f of records) {
      expect(f).toMatch(/^\d{4}-[a-z0-9-]+\.md$/);
      const text = read(`docs/decisions/${f}`);
      const n = linesOf(`docs/decisions/${f}`).length;
      expect({ f, n, fits: n >= 10 && n <= 40 }).toMatchObject({ fits: true });
      for (const part of ['## Context', '## Decision', '## Consequences'])
        expect({ f, has: text.includes(part) }).toEqual({ f, has: true });
    }
  });

  it('README and ARCHITECTURE link to the API reference', () => {
    expect(read('README.md')).toContain('](docs/api.md');
    expect(read('ARCHITECTURE.md')).toContain('](docs/api.md');
  });
});

describe('the docs point at what exists', () => {
  it('every relative link names an existing file, and its #anchor a heading there', () => {
    const broken: string[] = [];
    for (const file of LINKED) {
      for (const m of prose(read(file)).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const target = m[1];
        if (/^[a-z]+:/i.test(target)) continue;
        const [where, anchor] = target.split('#');
        const resolved = where ? path.relative(ROOT, path.resolve(ROOT, path.dirname(file), where)) : file;
        if (!existsSync(path.join(ROOT, resolved))) broken.push(`${file}: ${target}`);
        else if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor))
          broken.push(`${file}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("the README's configuration table names every setting the code reads", () => {
    const readme = read('README.md');
    const names = new Set<string>();
    for (const m of read('lib/config.ts').matchAll(/^ {4}([A-Z][A-Z0-9_]+): /gm)) names.add(m[1]);
    const code = [
      'lib/config.ts',
      'lib/process-settings.mjs',
      ...readdirSync(path.join(ROOT, 'scripts')).map((f) => `scripts/${f}`),
    ].filter((f) => /\.(ts|mjs)$/.test(f) && !f.endsWith('.test.ts') && !f.endsWith('.d.mts'));
    for (const f of code) for (const m of read(f).matchAll(/process\.env\.([A-Z][A-Z0-9_]+)/g)) names.add(m[1]);
    expect(names.size).toBeGreaterThan(30);
    expect([...names].filter((n) => !readme.includes(`\`${n}\``)).sort()).toEqual([]);
  });
});

describe('code comments say the reason, not where it was measured', () => {
  it('no file of lib, app, pages, components or scripts cites a benchmark session or bench/RESULTS.md', () => {
    const cites = new RegExp(['\\bsession \\d', 'RESULTS\\.md'].join('|'), 'i');
    const found: string[] = [];
    for (const dir of ['lib', 'app', 'pages', 'components', 'scripts']) {
      for (const d of readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })) {
        const file = path.relative(ROOT, path.join(d.parentPath, d.name));
        if (!d.isFile() || !/\.(ts|tsx|mjs|cjs|js)$/.test(d.name) || file.startsWith('lib/db/generated/') || file === SELF) continue;
        read(file)
          .split('\n')
          .forEach((line, i) => {
            if (cites.test(line)) found.push(`${file}:${i + 1}`);
          });
      }
    }
    for (const file of ['instrumentation.ts']) if (cites.test(read(file))) found.push(file);
    expect(found).toEqual([]);
  });
});
