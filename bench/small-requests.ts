// Small documents at the framework's own speed: the requests e-invoicing traffic is made of (a
// 4 KiB inline file, a replacement of one, a list, a small file's bytes) under 32 connections,
// next to the app's own GET /utils/v1/ping measured in the same run, on the embedded database and
// on PostgreSQL. Prints req/s, p99, the ratio to ping, the target and whether it is met, and the
// database queries each request makes (the server counts them with SILO_COUNT_QUERIES=1).
// Run: npm run bench   (or npx tsx bench/small-requests.ts; BENCH_SECONDS=… for another duration;
// BENCH_DATABASES=pglite or postgres for one; PostgreSQL needs TEST_DATABASE_URL, else it is skipped)
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { startServer, type SiloServer } from '../e2e/fixtures/server';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;
const WRK = process.env.WRK_PATH ?? '/usr/bin/wrk';
const DIR = path.resolve('tmp', 'bench-small');
const run = promisify(execFile);

interface Case {
  name: string;
  /** the ratio to ping this request must reach, per database */
  target?: { pglite: number; postgres: number };
  /** p99 must stay within this many times ping's p99 */
  p99Factor?: number;
  /** wrk lua script: the request */
  script: (w: World) => string;
}

interface World {
  url: string;
  key: string;
  entryId: string;
  fileId: string;
}

interface Result {
  rps: number;
  p99: number;
  errors: number;
}

// 4 KiB of random bytes, base64; each request swaps its first 8 symbols for a counter so every
// file has bytes of its own (a new blob, as real documents are), never a shared one.
const DATA = randomBytes(4096).toString('base64');
const SYMBOLS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

const inlinePost = (w: World, name: (lua: string) => string) => `
local symbols = "${SYMBOLS}"
local rest = "${DATA.slice(8)}"
local run = "${randomBytes(4).toString('hex')}"
local n = 0
wrk.method = "POST"
wrk.path = "/silo/v1/entries/${w.entryId}/files"
wrk.headers["Authorization"] = "Bearer ${w.key}"
wrk.headers["Content-Type"] = "application/json"
local function counter(i)
  local s = ""
  for _ = 1, 8 do
    local d = i % 64
    s = s .. symbols:sub(d + 1, d + 1)
    i = math.floor(i / 64)
  end
  return s
end
request = function()
  n = n + 1
  local body = '{"name":"' .. ${name('run .. "-" .. n')} .. '.xml","mime":"application/xml","data":"' .. counter(n) .. rest .. '"}'
  return wrk.format(nil, nil, nil, body)
end
`;

const get = (w: World, p: string) => `
wrk.method = "GET"
wrk.path = "${p}"
${p.startsWith('/utils') ? '' : `wrk.headers["Authorization"] = "Bearer ${w.key}"`}
`;

const CASES: Case[] = [
  { name: 'GET /utils/v1/ping', script: (w) => get(w, '/utils/v1/ping') },
  {
    name: 'inline 4 KiB, a new file each request',
    target: { pglite: 0.3, postgres: 0.5 },
    p99Factor: 3,
    script: (w) => inlinePost(w, (n) => n),
  },
  {
    name: 'inline 4 KiB, replacing the same file',
    target: { pglite: 0.25, postgres: 0.25 },
    script: (w) => inlinePost(w, () => '"same"'),
  },
  { name: 'GET /silo/v1/entries?limit=50', target: { pglite: 0.6, postgres: 0.6 }, script: (w) => get(w, '/silo/v1/entries?limit=50') },
  {
    name: 'GET a 4 KiB file (API path)',
    target: { pglite: 0.6, postgres: 0.6 },
    script: (w) => get(w, `/silo/v1/entries/${w.entryId}/files/${w.fileId}`),
  },
];

const REPORT = `
done = function(summary, latency, requests)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.status + summary.errors.timeout
  io.write(string.format("RESULT %f %f %d\\n", summary.requests / (summary.duration / 1e6), latency:percentile(99) / 1000, errors))
end
`;

async function wrk(url: string, script: string, seconds = SECONDS): Promise<Result> {
  const file = path.join(DIR, `${randomBytes(4).toString('hex')}.lua`);
  await writeFile(file, script + REPORT);
  const { stdout } = await run(WRK, ['-t1', '--timeout', '10s', `-c${CONNECTIONS}`, `-d${seconds}s`, '--latency', '-s', file, url], {
    maxBuffer: 1 << 24,
  });
  const m = /RESULT (\S+) (\S+) (\d+)/.exec(stdout);
  if (!m) throw new Error(`wrk printed no result:\n${stdout}`);
  return { rps: Number(m[1]), p99: Number(m[2]), errors: Number(m[3]) };
}

async function api(server: SiloServer, method: string, p: string, key: string, body?: unknown, requestId?: string) {
  const res = await fetch(server.url + p, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...(requestId ? { 'X-Request-Id': requestId } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
  return res.headers.get('content-type')?.includes('json') ? res.json() : res.arrayBuffer();
}

async function setUp(server: SiloServer): Promise<World> {
  const owner = await api(server, 'POST', '/admin/v1/owners', server.adminKey, { name: 'bench' });
  const key = owner.api_keys[0].key as string;
  let entryId = '';
  for (let i = 0; i < 60; i++) entryId = (await api(server, 'POST', '/silo/v1/entries', key, { name: `invoice ${i}` })).id;
  const file = await api(server, 'POST', `/silo/v1/entries/${entryId}/files`, key, {
    name: 'small.xml',
    mime: 'application/xml',
    data: DATA,
  });
  return { url: server.url, key, entryId, fileId: file.id };
}

/** The queries one request of each kind makes, read from the server's log (SILO_COUNT_QUERIES=1). */
async function queryCounts(server: SiloServer, w: World): Promise<number[]> {
  const files = `/silo/v1/entries/${w.entryId}/files`;
  const body = (name: string) => ({ name, mime: 'application/xml', data: randomBytes(4096).toString('base64') });
  const requests: ((id: string) => Promise<unknown>)[] = [
    (id) => fetch(`${server.url}/utils/v1/ping`, { headers: { 'X-Request-Id': id } }),
    (id) => api(server, 'POST', files, w.key, body(`${id}.xml`), id),
    (id) => api(server, 'POST', files, w.key, body('same.xml'), id),
    (id) => api(server, 'GET', '/silo/v1/entries?limit=50', w.key, undefined, id),
    (id) => api(server, 'GET', `${files}/${w.fileId}`, w.key, undefined, id),
  ];
  const count = async (request: (id: string) => Promise<unknown>) => {
    // The second of two: the first request of a route fills what its module caches (Next
    // bundles a copy per route), and the second "same.xml" is the replacement.
    await request(`bench-${randomBytes(4).toString('hex')}`);
    const id = `bench-${randomBytes(4).toString('hex')}`;
    await request(id);
    for (let t = 0; t < 50; t++) {
      const line = server
        .output()
        .split('\n')
        .find((l) => l.includes(id) && l.includes('"queries"'));
      if (line) return JSON.parse(line).queries as number;
      await new Promise((r) => setTimeout(r, 20));
    }
    return NaN;
  };
  const out: number[] = [];
  for (const r of requests) out.push(await count(r));
  return out;
}

async function bench(database: 'pglite' | 'postgres') {
  // Counting queries costs a little on every query: a server of its own counts them, and the
  // measured one runs as \`npm start\` does.
  const counter = await startServer({ database, env: { SILO_COUNT_QUERIES: '1' } });
  const counts = await setUp(counter)
    .then((w) => queryCounts(counter, w))
    .finally(() => counter.stop());
  // BENCH_PROFILE=dir: the measured server writes a V8 CPU profile there when it stops.
  const dir = process.env.BENCH_PROFILE && path.resolve(process.env.BENCH_PROFILE);
  const profile = dir ? { BENCH_PROFILE: dir, NODE_OPTIONS: `--require ${path.resolve(__dirname, 'cpu-profile.cjs')}` } : undefined;
  if (dir) await mkdir(dir, { recursive: true });
  const server = await startServer({ database, env: profile });
  try {
    const w = await setUp(server);
    await wrk(server.url, get(w, '/utils/v1/ping'), 2); // warm-up: JIT and the first requests' lazy work
    for (const c of CASES.slice(1)) await wrk(server.url, c.script(w), 1);
    const results: Result[] = [];
    for (const c of CASES) {
      // wrk stops with up to 32 requests still in the server: they must not run into the next case.
      await settle(server.pid);
      results.push(await wrk(server.url, c.script(w)));
    }
    print(database, results, counts);
  } finally {
    await server.stop();
  }
}

/** Waits until the process has been nearly idle (< 10% of a core) for a quarter second, 30 s at most. */
async function settle(pid: number) {
  const cpu = () => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime + stime, in clock ticks (1/100 s)
  };
  for (let i = 0; i < 120; i++) {
    const before = cpu();
    await new Promise((r) => setTimeout(r, 250));
    if (cpu() - before <= 2) return;
  }
}

function print(database: 'pglite' | 'postgres', results: Result[], counts: number[]) {
  const ping = results[0];
  console.log(`\n${database === 'pglite' ? 'embedded (PGlite)' : 'PostgreSQL'}: wrk -t1 -c${CONNECTIONS} -d${SECONDS}s`);
  console.log(`${'request'.padEnd(40)} ${'req/s'.padStart(7)} ${'p99 ms'.padStart(7)} ${'× ping'.padStart(7)}  queries  target`);
  CASES.forEach((c, i) => {
    const r = results[i];
    const ratio = r.rps / ping.rps;
    const goals: string[] = [];
    let met = true;
    if (c.target) {
      goals.push(`≥ ${c.target[database]}×`);
      met &&= ratio >= c.target[database];
    }
    if (c.p99Factor) {
      goals.push(`p99 ≤ ${(c.p99Factor * ping.p99).toFixed(0)} ms`);
      met &&= r.p99 <= c.p99Factor * ping.p99;
    }
    if (r.errors) goals.push(`${r.errors} errors`);
    // A floor with no requests (a machine too busy to answer) measures nothing.
    const outcome = ping.rps === 0 ? 'no floor measured' : met && !r.errors ? 'met' : 'MISSED';
    const verdict = goals.length ? `${goals.join(', ')}: ${outcome}` : 'floor';
    console.log(
      `${c.name.padEnd(40)} ${r.rps.toFixed(0).padStart(7)} ${r.p99.toFixed(0).padStart(7)} ${ratio.toFixed(2).padStart(7)}  ${String(counts[i]).padStart(7)}  ${verdict}`,
    );
  });
}

async function main() {
  if (!existsSync(WRK)) throw new Error(`wrk is not at ${WRK} (apt-get install wrk, or WRK_PATH=…)`);
  await mkdir(DIR, { recursive: true });
  console.log('Silo small-requests benchmark: ratios to GET /utils/v1/ping measured in the same run');
  const wanted = (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(',');
  try {
    if (wanted.includes('pglite')) await bench('pglite');
    if (wanted.includes('postgres')) {
      if (process.env.TEST_DATABASE_URL) await bench('postgres');
      else console.log('\nPostgreSQL: skipped (set TEST_DATABASE_URL=postgres://… to a server this may create databases on)');
    }
  } finally {
    await rm(DIR, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
