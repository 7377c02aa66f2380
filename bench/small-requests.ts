// Small documents at the framework's own speed: the requests e-invoicing traffic is made of (a
// 4 KiB inline file, an invoice's XML whose facts are read, a replacement, a list, a small file's
// bytes) under 32 connections,
// next to the app's own GET /utils/v1/ping measured in the same run, on the embedded database and
// on PostgreSQL. Prints req/s, p99, the ratio to ping, the target and whether it is met, and the
// database queries each request makes (the server counts them with SILO_COUNT_QUERIES=1).
//
// Made hard to flatter (issue 26): each endpoint is warmed for BENCH_WARM_SECONDS (3) right before it
// is measured; ping is measured before and after the small requests and the ratio is to their mean;
// every figure is measured BENCH_RUNS times (2) and printed as its spread, judged by its worst run;
// request bodies are built before wrk's clock starts (the load generator shares two cores with the
// server, so per-request work on its thread would lower the server's figure); and the server's
// memory (its process group's RSS) is sampled through the load. Each figure also prints the CPU
// time one request costs the server's main thread (the one that parses requests and runs Next) and
// the whole process (with the embedded database's own thread): shared machines change rates, far
// less the CPU a request takes.
// Run: npm run bench   (or npx tsx bench/small-requests.ts; BENCH_SECONDS=… for another duration;
// BENCH_DATABASES=pglite or postgres for one; PostgreSQL needs TEST_DATABASE_URL, else it is skipped;
// BENCH_WITH=retention,webhooks: a retention rule and three webhook endpoints in force; BENCH_WITH=metrics:
// GET /utils/v1/metrics scraped once a second through every measured run; BENCH_LOG=file:
// the measured server's log lines about webhooks, at debug level;
// BENCH_ONLY=new,invoice: ping and only the requests whose names hold one of the words;
// BENCH_LATENCY=1: wrk's latency distribution (p50, p75, p90, p99) of every run as it ends;
// BENCH_RUNS_SHOWN=1: every run as it ends, with its CPU per request (PostgreSQL's too) and the deliveries during it;
// BENCH_AGAINST=dir: another checkout (built) measured in the same run, run for run, and each pair's ratio)
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { startServer, type SiloServer } from '../e2e/fixtures/server';
import { throwawayDatabase } from '../lib/testing/throwaway-database';
import { cpuTicksOf, postgresTicks, postgresTicksBetween } from './measure';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARM_SECONDS = Number(process.env.BENCH_WARM_SECONDS ?? 3);
const RUNS = Math.max(2, Number(process.env.BENCH_RUNS ?? 2));
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
  /** wrk lua script: the request, for a run of `seconds` */
  script: (w: World, seconds: number) => string;
}

interface World {
  url: string;
  key: string;
  entryId: string;
  fileId: string;
  /** BENCH_WITH=webhooks: each endpoint's first seq not delivered to it */
  cursors: number[];
}

/** The seq of the workspace's newest record. */
async function newestSeq(server: SiloServer, key: string): Promise<number> {
  const { list } = await api(server, 'GET', '/silo/v1/events?order=desc&limit=1', key);
  return list[0].seq;
}

/**
 * BENCH_WITH=webhooks: waits (up to 15 minutes) for the receiver to have every record the endpoints
 * subscribe to, and says how long that took after the last write: what waited while the requests
 * kept the instance busy goes out once they stop.
 */
async function drained(server: SiloServer, w: World, received: () => number): Promise<string> {
  const head = await newestSeq(server, w.key);
  const expected = w.cursors.reduce((n, c) => n + (head - c), 0);
  const start = performance.now();
  while (received() < expected && performance.now() - start < 15 * 60_000) await new Promise((r) => setTimeout(r, 200));
  const s = ((performance.now() - start) / 1000).toFixed(0);
  return received() >= expected
    ? `all ${expected} deliveries received, the last ${s} s after the last write`
    : `${received()} of ${expected} deliveries received ${s} s after the last write`;
}

interface Result {
  rps: number;
  p99: number;
  errors: number;
  /** wrk's latency distribution: "50% 16.38ms, 75% 17.39ms, 90% 20.64ms, 99% 40.25ms" */
  latency?: string;
  /** CPU time per request, in ms: the server's main thread (HTTP, Next) and the whole process */
  mainMs?: number;
  processMs?: number;
  /** PostgreSQL's processes' CPU time per request, in ms (every process named postgres: its backends, autovacuum, WAL) */
  databaseMs?: number;
}

// 4 KiB of random bytes, base64; each request swaps its first 8 symbols for a counter (from a random
// start, so no two runs send the same bytes) so every file has bytes of its own (a new blob, as real
// documents are), never a shared one.
const DATA = randomBytes(4096).toString('base64');
const SYMBOLS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

// A 4.4 KB XRechnung (UBL) invoice whose number ends in six digits that every request changes: its
// facts are read (lib/invoices), and each file has bytes of its own. The digits start at a multiple
// of 3 bytes, so the base64 of the whole is the base64 of the part before them, of the digits, and
// of the part after (the Lua below encodes the digits).
const INVOICE = (() => {
  const xml = readFileSync(path.resolve(__dirname, '../lib/invoices/samples/xrechnung-ubl-invoice.xml'), 'utf8');
  const at = xml.indexOf('RE-2024-00042');
  const pad = 'X'.repeat((3 - ((Buffer.byteLength(xml.slice(0, at)) + 'RE-'.length) % 3)) % 3);
  const before = Buffer.from(`${xml.slice(0, at)}RE-${pad}`);
  const after = Buffer.from(xml.slice(at + 'RE-2024-00042'.length));
  return { before: before.toString('base64'), after: after.toString('base64'), number: (n: string) => `RE-${pad}${n}` };
})();

/** The invoice's base64 with number `n` (as the Lua below writes it). */
const invoiceData = (n: number) => INVOICE.before + Buffer.from(String(n).padStart(6, '0')).toString('base64') + INVOICE.after;

/**
 * POSTs of 4 KiB inline files, every request prepared before wrk's clock starts: `count` bodies,
 * each with bytes of its own, used in turn: random bytes (a counter in the first 8 base64 symbols),
 * or the invoice above with a number of its own.
 */
const inlinePost = (w: World, name: (lua: string) => string, count: number, bytes: 'random' | 'invoice' = 'random') => `
local symbols = "${SYMBOLS}"
local rest = "${DATA.slice(8)}"
local run = "${randomBytes(4).toString('hex')}"
local base = ${randomBytes(5).readUIntBE(0, 5)}
local function counter(i)
  local s = ""
  for _ = 1, 8 do
    local d = i % 64
    s = s .. symbols:sub(d + 1, d + 1)
    i = math.floor(i / 64)
  end
  return s
end
-- base64 of a string whose length is a multiple of 3
local function b64(s)
  local out = ""
  for i = 1, #s, 3 do
    local a, b, c = s:byte(i, i + 2)
    local v = a * 65536 + b * 256 + c
    for k = 3, 0, -1 do
      local d = math.floor(v / 64 ^ k) % 64
      out = out .. symbols:sub(d + 1, d + 1)
    end
  end
  return out
end
local function data(n)
  ${bytes === 'invoice' ? `return "${INVOICE.before}" .. b64(string.format("%06d", (base + n) % 1000000)) .. "${INVOICE.after}"` : 'return counter(base + n) .. rest'}
end
-- wrk adds Host to wrk.headers only after this script has loaded: prepared requests carry their own.
local headers = { ["Host"] = wrk.host .. ":" .. wrk.port, ["Authorization"] = "Bearer ${w.key}", ["Content-Type"] = "application/json" }
local prepared = {}
for n = 1, ${count} do
  local body = '{"name":"' .. ${name('run .. "-" .. n')} .. '.xml","mime":"application/xml","data":"' .. data(n) .. '"}'
  prepared[n] = wrk.format("POST", "/silo/v1/entries/${w.entryId}/files", headers, body)
end
local n = 0
request = function()
  n = n % ${count} + 1
  return prepared[n]
end
`;

/** Enough distinct bodies for a run at up to 2,500 requests a second: no bytes are sent twice. */
const bodiesFor = (seconds: number) => Math.ceil(seconds * 2_500);

const get = (w: World, p: string) => `
wrk.method = "GET"
wrk.path = "${p}"
${p.startsWith('/utils') ? '' : `wrk.headers["Authorization"] = "Bearer ${w.key}"`}
`;

const ALL_CASES: Case[] = [
  { name: 'GET /utils/v1/ping', script: (w) => get(w, '/utils/v1/ping') },
  {
    name: 'inline 4 KiB, a new file each request',
    target: { pglite: 0.45, postgres: 0.6 },
    p99Factor: 2,
    script: (w, seconds) => inlinePost(w, (n) => n, bodiesFor(seconds)),
  },
  {
    // No target of its own: what reading an invoice's facts adds to a new file (the random bytes
    // above are labelled XML too, but no XML document starts as they do: looksLikeXml).
    name: 'inline 4.4 KB invoice XML, a new one',
    script: (w, seconds) => inlinePost(w, (n) => n, bodiesFor(seconds), 'invoice'),
  },
  {
    // A replacement's answer lists every earlier version of the file (`previous`, about 370 bytes
    // each: API law), so its cost grows with the file's history. The target is judged on files with
    // tens of versions (200 files replaced in turn: an invoice is corrected a few times, not
    // thousands), whatever the machine's speed; the case below shows the cost of a deep history.
    name: 'inline 4 KiB, replacing a file (200 in turn)',
    target: { pglite: 0.35, postgres: 0.35 },
    script: (w, seconds) => inlinePost(w, () => '"turn-" .. (n % 200)', bodiesFor(seconds)),
  },
  {
    // No target: one file replaced for the whole case, thousands of times (its last answers list
    // thousands of versions, megabytes, and the faster the machine the deeper it gets).
    name: 'inline 4 KiB, one file, thousands deep',
    script: (w, seconds) => inlinePost(w, () => '"same"', bodiesFor(seconds)),
  },
  { name: 'GET /silo/v1/entries?limit=50', target: { pglite: 0.6, postgres: 0.6 }, script: (w) => get(w, '/silo/v1/entries?limit=50') },
  {
    name: 'GET a 4 KiB file (API path)',
    target: { pglite: 0.6, postgres: 0.6 },
    script: (w) => get(w, `/silo/v1/entries/${w.entryId}/files/${w.fileId}`),
  },
];

// BENCH_ONLY=new,replacing: ping and only the requests whose names hold one of the words (for a
// profile of one kind of request; the query counts are still taken for every kind).
const only = (process.env.BENCH_ONLY ?? '').split(',').filter(Boolean);
const CASES = ALL_CASES.filter((c, i) => i === 0 || only.length === 0 || only.some((word) => c.name.includes(word)));

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
  // wrk's latency distribution (--latency): "50% 16.38ms, 75% …"
  const latency = (stdout.match(/^\s+(50|75|90|99)%\s+\S+/gm) ?? []).map((l) => l.trim().replace(/\s+/, ' ')).join(', ');
  return { rps: Number(m[1]), p99: Number(m[2]), errors: Number(m[3]), latency };
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

// BENCH_WITH=retention,webhooks: the writes measured with what issues 23 and 24 add to each in
// force — a retention rule every version matches (10 years from the end of the year, governance),
// and three webhook endpoints subscribed to every record, on a local receiver that answers 204 at
// once (the server then runs with WEBHOOK_ALLOW_HTTP and WEBHOOK_ALLOW_PRIVATE).
const WITH = new Set((process.env.BENCH_WITH ?? '').split(',').filter(Boolean));
const serverEnv = (): Record<string, string> => (WITH.has('webhooks') ? { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' } : {});

/**
 * BENCH_WITH=metrics: GET /utils/v1/metrics once a second (a scraper at 1 s, where Prometheus'
 * default is 15 s) until stopped; how many scrapes and their mean time. A scrape that fails stops the bench.
 */
function scrapeEverySecond(server: SiloServer): { stop(): Promise<{ scrapes: number; meanMs: number }> } {
  let scrapes = 0;
  let totalMs = 0;
  let failed: Error | undefined;
  const once = async () => {
    const t0 = performance.now();
    const res = await fetch(`${server.url}/utils/v1/metrics`, { headers: { Authorization: `Bearer ${server.adminKey}` } });
    const text = await res.text();
    if (res.status !== 200 || !text.includes('silo_http_requests_total')) throw new Error(`metrics: ${res.status} ${text.slice(0, 200)}`);
    totalMs += performance.now() - t0;
    scrapes++;
  };
  let last = Promise.resolve();
  const timer = setInterval(() => {
    last = once().catch((err) => {
      failed = err;
    });
  }, 1000);
  return {
    async stop() {
      clearInterval(timer);
      await last;
      if (failed) throw failed;
      return { scrapes, meanMs: scrapes ? totalMs / scrapes : 0 };
    },
  };
}

/** A receiver that answers every delivery 204 at once, counting them. */
async function startReceiver(): Promise<{ url: string; received: () => number; close(): void }> {
  let n = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      n++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, received: () => n, close: () => server.close() };
}

async function setUp(server: SiloServer, receiverUrl?: string): Promise<World> {
  const owner = await api(server, 'POST', '/admin/v1/owners', server.adminKey, { name: 'bench' });
  const key = owner.api_keys[0].key as string;
  if (WITH.has('retention'))
    await api(server, 'POST', '/silo/v1/retention-rules', key, { years: 10, from: 'end_of_year', mode: 'governance' });
  // each endpoint gets the records after its own webhook.created (the newest seq once it exists)
  const cursors: number[] = [];
  if (WITH.has('webhooks') && receiverUrl)
    for (let i = 0; i < 3; i++) {
      await api(server, 'POST', '/silo/v1/webhooks', key, { url: receiverUrl, types: ['*'], description: `bench ${i}` });
      cursors.push(await newestSeq(server, key));
    }
  let entryId = '';
  for (let i = 0; i < 60; i++) entryId = (await api(server, 'POST', '/silo/v1/entries', key, { name: `invoice ${i}` })).id;
  const file = await api(server, 'POST', `/silo/v1/entries/${entryId}/files`, key, {
    name: 'small.xml',
    mime: 'application/xml',
    data: DATA,
  });
  // The invoice case is what it says: its facts are read (its Lua writes the same bytes for a number).
  const invoice = await api(server, 'POST', `/silo/v1/entries/${entryId}/files`, key, {
    name: 'invoice.xml',
    mime: 'application/xml',
    data: invoiceData(123),
  });
  if (invoice.facts?.number !== INVOICE.number('000123'))
    throw new Error(`the bench's invoice has no facts: ${JSON.stringify(invoice.facts)}`);
  return { url: server.url, key, entryId, fileId: file.id, cursors };
}

/** The queries one request of each kind makes, read from the server's log (SILO_COUNT_QUERIES=1). */
async function queryCounts(server: SiloServer, w: World): Promise<number[]> {
  const files = `/silo/v1/entries/${w.entryId}/files`;
  const body = (name: string) => ({ name, mime: 'application/xml', data: randomBytes(4096).toString('base64') });
  const requests: ((id: string) => Promise<unknown>)[] = [
    (id) => fetch(`${server.url}/utils/v1/ping`, { headers: { 'X-Request-Id': id } }),
    (id) => api(server, 'POST', files, w.key, body(`${id}.xml`), id),
    (id) =>
      api(
        server,
        'POST',
        files,
        w.key,
        { ...body(`${id}-invoice.xml`), data: invoiceData(randomBytes(3).readUIntBE(0, 3) % 1_000_000) },
        id,
      ),
    (id) => api(server, 'POST', files, w.key, body('turn.xml'), id),
    (id) => api(server, 'POST', files, w.key, body('same.xml'), id),
    (id) => api(server, 'GET', '/silo/v1/entries?limit=50', w.key, undefined, id),
    (id) => api(server, 'GET', `${files}/${w.fileId}`, w.key, undefined, id),
  ];
  const count = async (request: (id: string) => Promise<unknown>) => {
    // The third of three: the first request of a route fills what its module caches (Next
    // bundles a copy per route), and a file is replaced from its second on, its history read at
    // the first replacement (lib/silo/files/slot-history.ts) and kept for every one after.
    await request(`bench-${randomBytes(4).toString('hex')}`);
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

/** One measured server: where it runs, its world, its memory sampler and the scrapes it had. */
interface Measured {
  label: string;
  server: SiloServer;
  w: World;
  rss: ReturnType<typeof rssSampler>;
  scraped: { scrapes: number; ms: number };
}

async function measureOn(m: Measured, c: Case, database: 'pglite' | 'postgres', receiver?: { received: () => number }): Promise<Result> {
  const { server, w } = m;
  // wrk stops with up to 32 requests still in the server: they must not run into the next run.
  await settle(server.pid);
  const before = cpuTicks(server.pid);
  const dbBefore = database === 'postgres' ? postgresTicks() : undefined;
  const sentBefore = receiver?.received() ?? 0;
  const scraper = WITH.has('metrics') ? scrapeEverySecond(server) : undefined;
  const result = await wrk(server.url, c.script(w, SECONDS));
  const after = cpuTicks(server.pid);
  if (scraper) {
    const s = await scraper.stop();
    m.scraped.scrapes += s.scrapes;
    m.scraped.ms += s.meanMs * s.scrapes;
  }
  const dbTicks = dbBefore && postgresTicksBetween(dbBefore, postgresTicks());
  const requests = result.rps * SECONDS;
  // Ticks are 1/100 s; per request, in ms.
  const r: Result = {
    ...result,
    mainMs: ((after.main - before.main) * 10) / requests,
    processMs: ((after.all - before.all) * 10) / requests,
    databaseMs: dbTicks === undefined ? undefined : (dbTicks * 10) / requests,
  };
  if (process.env.BENCH_LATENCY) console.log(`  ${m.label}${c.name}: ${result.latency}`);
  // BENCH_RUNS_SHOWN=1: each run as it ends (what its CPU went to, what the endpoints got during it)
  if (process.env.BENCH_RUNS_SHOWN)
    console.log(
      `  ${m.label}${c.name}: ${result.rps.toFixed(0)} req/s, CPU ms a request: main ${r.mainMs?.toFixed(2)}, all ${r.processMs?.toFixed(2)}${
        r.databaseMs === undefined ? '' : `, PostgreSQL ${r.databaseMs.toFixed(2)}`
      }${receiver ? `; ${receiver.received() - sentBefore} deliveries during it` : ''}`,
    );
  return r;
}

// BENCH_AGAINST=dir: another checkout of Silo (built, its node_modules installed: a base to compare
// with) is measured in the same run, each of its runs right beside the same run of this one (base,
// this, this, base, …), so the machine's drift falls on both alike; then each pair's ratio is
// printed, and their geometric mean: the runs of one server drift by far more than the two differ.
// Its database is its own, empty at its start (its own migrations), and on PostgreSQL one role
// (what a base before two roles knows).
const AGAINST = process.env.BENCH_AGAINST ? path.resolve(process.env.BENCH_AGAINST) : undefined;

async function bench(database: 'pglite' | 'postgres') {
  // Counting queries costs a little on every query: a server of its own counts them, and the
  // measured one runs as \`npm start\` does.
  const receiver = WITH.has('webhooks') ? await startReceiver() : undefined;
  const counter = await startServer({ database, env: { SILO_COUNT_QUERIES: '1', ...serverEnv() } });
  const counts = await setUp(counter, receiver?.url)
    .then((w) => queryCounts(counter, w))
    .finally(() => counter.stop());
  // BENCH_PROFILE=dir: the measured server writes a V8 CPU profile there when it stops.
  const dir = process.env.BENCH_PROFILE && path.resolve(process.env.BENCH_PROFILE);
  const preload = [dir && 'cpu-profile.cjs', process.env.BENCH_MEMORY && 'memory-probe.cjs']
    .filter(Boolean)
    .map((f) => `--require ${path.resolve(__dirname, f as string)}`);
  // BENCH_MEMORY=file: each of the server's threads appends its heap there every 500 ms, and the
  // main thread the process's resident memory by kind (bench/memory-probe.cjs).
  const memory = process.env.BENCH_MEMORY ? { BENCH_MEMORY: path.resolve(process.env.BENCH_MEMORY) } : undefined;
  const profile = preload.length ? { ...(dir ? { BENCH_PROFILE: dir } : {}), ...memory, NODE_OPTIONS: preload.join(' ') } : undefined;
  if (dir) await mkdir(dir, { recursive: true });
  // what the counting server's endpoints got is not the measured one's
  const receivedBefore = receiver?.received() ?? 0;
  const baseDb = AGAINST && database === 'postgres' ? await throwawayDatabase(false, 'silo_bench_base') : undefined;
  const measured: Measured[] = [];
  try {
    const start = async (label: string, root?: string) => {
      const server = await startServer({
        database,
        ...(root ? { root, empty: true, databaseUrl: baseDb?.url } : {}),
        env: { ...profile, ...serverEnv(), ...(process.env.BENCH_LOG ? { LOG_LEVEL: 'debug' } : {}) },
      });
      const m = { label, server } as Measured;
      measured.push(m);
      m.w = await setUp(server, receiver?.url);
      m.rss = rssSampler(server.pid);
      m.scraped = { scrapes: 0, ms: 0 };
    };
    if (AGAINST) await start('base: ', AGAINST);
    await start(AGAINST ? 'this: ' : '');
    const measure = (m: Measured, c: Case) => measureOn(m, c, database, receiver);
    const [ping, ...rest] = CASES;
    const pings = measured.map(() => ({ before: [] as Result[], after: [] as Result[] }));
    const results = measured.map(() => [] as Result[][]);
    const rssAtStart: number[] = [];
    for (const m of measured) await wrk(m.server.url, ping.script(m.w, WARM_SECONDS), WARM_SECONDS);
    // With a base, every other run goes this checkout first (base, this, this, base, …): a machine
    // that slows down (or speeds up) through the runs weighs on both alike.
    const turn = (r: number) => (r % 2 ? [...measured.keys()].reverse() : [...measured.keys()]);
    for (let r = 0; r < RUNS; r++) for (const i of turn(r)) pings[i].before.push(await measure(measured[i], ping));
    for (const m of measured) rssAtStart.push(m.rss.now());
    for (const c of rest) {
      const runs = measured.map(() => [] as Result[]);
      for (const m of measured) {
        await settle(m.server.pid);
        await wrk(m.server.url, c.script(m.w, WARM_SECONDS), WARM_SECONDS); // this endpoint's own warm-up
      }
      for (let r = 0; r < RUNS; r++) for (const i of turn(r)) runs[i].push(await measure(measured[i], c));
      for (const [i, x] of runs.entries()) results[i].push(x);
    }
    for (let r = 0; r < RUNS; r++) for (const i of turn(r)) pings[i].after.push(await measure(measured[i], ping));
    for (const [i, m] of measured.entries()) {
      if (AGAINST) console.log(`\n${i === 0 ? `BASE (${AGAINST})` : 'THIS checkout'}:`);
      print(database, pings[i], results[i], counts, { start: rssAtStart[i], max: m.rss.stop() });
    }
    if (AGAINST) compare(database, results[0], results[1]);
    const m = measured[measured.length - 1];
    if (receiver)
      console.log(`with ${[...WITH].join(' and ')}: ${await drained(m.server, m.w, () => receiver.received() - receivedBefore)}`);
    if (WITH.has('metrics'))
      console.log(
        `with metrics: ${m.scraped.scrapes} scrapes during the measured runs, ${(m.scraped.ms / m.scraped.scrapes).toFixed(1)} ms each on average`,
      );
    // BENCH_LOG=file: the measured server's log lines about webhooks (it runs with LOG_LEVEL=debug)
    if (process.env.BENCH_LOG)
      await writeFile(
        process.env.BENCH_LOG,
        `${m.server
          .output()
          .split('\n')
          .filter((l) => l.includes('webhook'))
          .join('\n')}\n`,
      );
  } finally {
    for (const m of measured) await m.server.stop();
    await baseDb?.drop();
    receiver?.close();
  }
}

/**
 * BENCH_AGAINST: this checkout's req/s over the base's, run by run (each pair measured one right
 * after the other), and the CPU a request costs the server's main thread in each.
 */
function compare(database: 'pglite' | 'postgres', base: Result[][], mine: Result[][]) {
  console.log(`\n${database}: this checkout against the base, pair by pair (this req/s ÷ the base's, measured one after the other)`);
  CASES.slice(1).forEach((c, i) => {
    const ratios = mine[i].map((r, k) => r.rps / base[i][k].rps);
    const sorted = [...ratios].sort((a, b) => a - b);
    // The pairs alternate which server runs first; the one that runs second pays for what the
    // first left behind (PostgreSQL's vacuum and checkpoints), so their geometric mean is the estimate.
    const geomean = Math.exp(ratios.reduce((n, x) => n + Math.log(x), 0) / ratios.length);
    const main = (rs: Result[]) =>
      spread(
        rs.map((r) => r.mainMs ?? NaN),
        2,
      );
    console.log(
      `${c.name.padEnd(40)} pairs ${ratios.map((x) => x.toFixed(2)).join(' ')} (base first, this first, …); geometric mean ${geomean.toFixed(2)}, worst ${sorted[0].toFixed(2)}; main-thread CPU ms ${main(base[i])} → ${main(mine[i])}`,
    );
  });
}

/**
 * CPU time (utime + stime, in clock ticks of 1/100 s) of a process's main thread — the thread that
 * parses requests and runs Next — and of the whole process (every thread: the embedded database's,
 * libuv's pool, V8's collector).
 */
function cpuTicks(pid: number): { main: number; all: number } {
  return { main: cpuTicksOf(`/proc/${pid}/task/${pid}/stat`), all: cpuTicksOf(`/proc/${pid}/stat`) };
}

/** Waits until the process has been nearly idle (< 10% of a core) for a quarter second, 30 s at most. */
async function settle(pid: number) {
  const cpu = () => cpuTicksOf(`/proc/${pid}/stat`);
  for (let i = 0; i < 120; i++) {
    const before = cpu();
    await new Promise((r) => setTimeout(r, 250));
    if (cpu() - before <= 2) return;
  }
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const spread = (xs: number[], digits: number) => {
  const lo = Math.min(...xs).toFixed(digits);
  const hi = Math.max(...xs).toFixed(digits);
  return lo === hi ? lo : `${lo}–${hi}`;
};

function print(
  database: 'pglite' | 'postgres',
  ping: { before: Result[]; after: Result[] },
  results: Result[][],
  counts: number[],
  rss: { start: number; max: number },
) {
  const pings = [...ping.before, ...ping.after];
  const floor = { rps: mean(pings.map((p) => p.rps)), p99: mean(pings.map((p) => p.p99)) };
  console.log(`\n${database === 'pglite' ? 'embedded (PGlite)' : 'PostgreSQL'}: wrk -t1 -c${CONNECTIONS} -d${SECONDS}s, ${RUNS} runs each`);
  console.log(
    `ping before ${spread(
      ping.before.map((p) => p.rps),
      0,
    )} req/s, after ${spread(
      ping.after.map((p) => p.rps),
      0,
    )} req/s: the floor is their mean, ${floor.rps.toFixed(0)} req/s, p99 ${floor.p99.toFixed(1)} ms`,
  );
  console.log(
    `ping's CPU per request: main thread ${spread(
      pings.map((p) => p.mainMs ?? NaN),
      2,
    )} ms, whole process ${spread(
      pings.map((p) => p.processMs ?? NaN),
      2,
    )} ms`,
  );
  console.log(
    `${'request'.padEnd(40)} ${'req/s'.padStart(11)} ${'p99 ms'.padStart(11)} ${'× ping'.padStart(11)} ${'CPU ms: main'.padStart(13)} ${'all'.padStart(11)}  queries  target (judged by the worst run)`,
  );
  CASES.slice(1).forEach((c, i) => {
    const runs = results[i];
    const ratios = runs.map((r) => r.rps / floor.rps);
    const worstP99 = Math.max(...runs.map((r) => r.p99));
    const errors = runs.reduce((n, r) => n + r.errors, 0);
    const goals: string[] = [];
    let met = true;
    if (c.target) {
      goals.push(`≥ ${c.target[database]}×`);
      met &&= Math.min(...ratios) >= c.target[database];
    }
    if (c.p99Factor) {
      goals.push(`p99 ≤ ${(c.p99Factor * floor.p99).toFixed(0)} ms`);
      met &&= worstP99 <= c.p99Factor * floor.p99;
    }
    if (errors) goals.push(`${errors} errors`);
    // A floor with no requests (a machine too busy to answer) measures nothing.
    const outcome = floor.rps === 0 ? 'no floor measured' : met && !errors ? 'met' : 'MISSED';
    const verdict = goals.length ? `${goals.join(', ')}: ${outcome}` : '';
    console.log(
      `${c.name.padEnd(40)} ${spread(
        runs.map((r) => r.rps),
        0,
      ).padStart(11)} ${spread(
        runs.map((r) => r.p99),
        0,
      ).padStart(11)} ${spread(ratios, 2).padStart(11)} ${spread(
        runs.map((r) => r.mainMs ?? NaN),
        2,
      ).padStart(13)} ${spread(
        runs.map((r) => r.processMs ?? NaN),
        2,
      ).padStart(11)}  ${String(counts[ALL_CASES.indexOf(c)]).padStart(7)}  ${verdict}`,
    );
  });
  const growth = (rss.max - rss.start) / 2 ** 20;
  console.log(
    `server memory (RSS of its processes): ${(rss.start / 2 ** 20).toFixed(0)} MB before the small requests, at most ${(rss.max / 2 ** 20).toFixed(0)} MB during them: growth ${growth.toFixed(0)} MB (target ≤ 100 MB: ${growth <= 100 ? 'met' : 'MISSED'})`,
  );
}

/** The resident memory of a process group (the server and any child), sampled every 200 ms. */
function rssSampler(pgid: number) {
  const now = () => {
    let bytes = 0;
    for (const p of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      try {
        const stat = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ');
        if (Number(stat[2]) !== pgid) continue; // field 5, the process group
        bytes += Number(stat[21]) * 4096; // field 24, rss in pages
      } catch {
        // the process ended while we read
      }
    }
    return bytes;
  };
  let max = now();
  const timer = setInterval(() => {
    max = Math.max(max, now());
  }, 200);
  return {
    now,
    stop() {
      clearInterval(timer);
      return Math.max(max, now());
    },
  };
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
