// Webhooks under a write load (issue 24): files stored through the API at a steady rate on
// PostgreSQL, one endpoint subscribed to every record on a loopback receiver that answers 204 at
// once; for each delivery, the time from its record (`at`, stamped in the change's own
// transaction) to its arrival. Prints the rate reached, the records delivered and the latency's
// p50 / p99 / max against the target (p99 ≤ 2 s).
// Then a receiver that is down (answers 503) for BENCH_DOWN_SECONDS (300) while files keep coming
// (BENCH_DOWN_RATE, 10/s): when it is back, every record must arrive within the retry schedule —
// by the latest `next_attempt_at` its pending deliveries had when it came back (the schedule's own
// bound; docs/api.md, Webhooks), plus BENCH_DOWN_SLACK_SECONDS (5: a poll, the claim, and the
// records of an entry that wait for its first, one after another).
// Run: npx tsx bench/webhooks.ts (after a build; needs TEST_DATABASE_URL, else it is skipped;
// BENCH_RATE=200 files/s, BENCH_SECONDS=20, BENCH_ENTRIES=100; BENCH_DATABASES=pglite for the
// embedded database; BENCH_DOWN_SECONDS=0 leaves the outage out; BENCH_PROFILE=dir: the server's
// threads write V8 CPU profiles there, as in small-requests.ts)
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { startServer, type SiloServer } from '../e2e/fixtures/server';
import { cpuTicksOf, postgresTicks, postgresTicksBetween } from './measure';

const RATE = Number(process.env.BENCH_RATE ?? 200);
// Files go to this many entries in turn, as invoices do (one entry each): an entry's records are
// delivered one after another (docs/api.md, Webhooks: order per entry), unrelated entries' side by side.
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const MAX_IN_FLIGHT = 64;
const TARGET_P99_MS = 2000;
const DOWN_SECONDS = Number(process.env.BENCH_DOWN_SECONDS ?? 300);
const DOWN_RATE = Number(process.env.BENCH_DOWN_RATE ?? 10);
const DOWN_SLACK_MS = Number(process.env.BENCH_DOWN_SLACK_SECONDS ?? 5) * 1000;

interface Arrival {
  id: string;
  latencyMs: number;
  /** when it arrived (Date.now()) */
  at: number;
}

async function startReceiver() {
  const arrivals: Arrival[] = [];
  const seen = new Set<string>();
  const state = { down: false, refused: 0 };
  const server = http.createServer((req, res) => {
    if (state.down) {
      state.refused++;
      req.resume();
      res.writeHead(503).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const now = Date.now();
      const id = String(req.headers['webhook-id'] ?? '');
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { at: string };
        // A retry of a record already received counts once (at least once, identified by webhook-id).
        if (!seen.has(id)) {
          seen.add(id);
          arrivals.push({ id, latencyMs: now - Date.parse(body.at), at: now });
        }
      } catch {}
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, arrivals, state, close: () => server.close() };
}

async function api(server: SiloServer, method: string, p: string, key: string, body?: unknown) {
  const res = await fetch(server.url + p, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
  return res.json();
}

const percentile = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Stores 4 KiB files at `rate` per second for `seconds`, into the entries in turn. */
async function storeAtRate(server: SiloServer, key: string, entries: string[], rate: number, seconds: number, first = 0) {
  const data = randomBytes(4096);
  let sent = 0;
  let stored = 0;
  let failed = 0;
  let inFlight = 0;
  const started = Date.now();
  const post = async (n: number) => {
    inFlight++;
    data.writeUInt32BE(n, 0);
    const body = { name: `f${n}.xml`, mime: 'application/xml', data: data.toString('base64') };
    try {
      await api(server, 'POST', `/silo/v1/entries/${entries[n % entries.length]}/files`, key, body);
      stored++;
    } catch {
      failed++;
    } finally {
      inFlight--;
    }
  };
  // A steady rate: the n-th request starts at n / rate seconds, unless MAX_IN_FLIGHT are waiting.
  const pending: Promise<void>[] = [];
  while (Date.now() - started < seconds * 1000) {
    const due = Math.floor(((Date.now() - started) / 1000) * rate);
    while (sent < due && inFlight < MAX_IN_FLIGHT) pending.push(post(first + sent++));
    await new Promise((r) => setTimeout(r, 2));
  }
  await Promise.all(pending);
  return { stored, failed, elapsed: (Date.now() - started) / 1000 };
}

/** CPU seconds so far: the server's process and main thread, every postgres process on the machine, this process. */
function cpuSeconds(pid: number) {
  const ticks = (file: string) => cpuTicksOf(file) / 100;
  const own = process.cpuUsage();
  return {
    server: ticks(`/proc/${pid}/stat`),
    main: ticks(`/proc/${pid}/task/${pid}/stat`),
    postgres: postgresTicks(),
    bench: (own.user + own.system) / 1e6,
  };
}

function cpuSpent(a: ReturnType<typeof cpuSeconds>, b: ReturnType<typeof cpuSeconds>) {
  const d = (k: 'server' | 'main' | 'bench') => (b[k] - a[k]).toFixed(1);
  return {
    server: d('server'),
    main: d('main'),
    postgres: (postgresTicksBetween(a.postgres, b.postgres) / 100).toFixed(1),
    bench: d('bench'),
  };
}

/** Waits until no delivery has arrived for 3 s. */
async function quiet(receiver: Receiver) {
  let last = -1;
  for (let still = 0; still < 6; ) {
    await new Promise((r) => setTimeout(r, 500));
    if (receiver.arrivals.length === last) still++;
    else still = 0;
    last = receiver.arrivals.length;
  }
}

const lastSeq = async (server: SiloServer, key: string) =>
  ((await api(server, 'GET', '/silo/v1/events?limit=1&order=desc', key)) as { list: { seq: number }[] }).list[0]?.seq ?? 0;

/** The pending deliveries' latest next_attempt_at (every page of the endpoint's deliveries). */
async function latestNextAttempt(server: SiloServer, key: string, hookId: string) {
  let latest = 0;
  let pending = 0;
  let cursor: string | null | undefined;
  do {
    const page = (await api(
      server,
      'GET',
      `/silo/v1/webhooks/${hookId}/deliveries?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      key,
    )) as { list: { state: string; next_attempt_at: string | null }[]; next_cursor?: string | null };
    for (const d of page.list)
      if (d.state === 'pending' && d.next_attempt_at) {
        pending++;
        latest = Math.max(latest, Date.parse(d.next_attempt_at));
      }
    cursor = page.next_cursor;
  } while (cursor);
  return { latest, pending };
}

async function bench(database: 'pglite' | 'postgres') {
  const receiver = await startReceiver();
  const dir = process.env.BENCH_PROFILE && path.resolve(process.env.BENCH_PROFILE);
  if (dir) await mkdir(dir, { recursive: true });
  const profile: Record<string, string> = dir
    ? { BENCH_PROFILE: dir, NODE_OPTIONS: `--require ${path.resolve(__dirname, 'cpu-profile.cjs')}` }
    : {};
  const server = await startServer({ database, env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', ...profile } });
  try {
    const owner = await api(server, 'POST', '/admin/v1/owners', server.adminKey, { name: 'bench' });
    const key = owner.api_keys[0].key as string;
    const entries: string[] = [];
    for (let i = 0; i < ENTRIES; i++) entries.push((await api(server, 'POST', '/silo/v1/entries', key, { name: `invoice ${i}` })).id);
    const hook = (await api(server, 'POST', '/silo/v1/webhooks', key, { url: receiver.url, types: ['*'] })) as { id: string };
    const before = cpuSeconds(server.pid);
    const load = await storeAtRate(server, key, entries, RATE, SECONDS);
    // Every change writes records (the files' and the entry's); wait until the deliveries stop coming.
    await quiet(receiver);
    const cpu = cpuSpent(before, cpuSeconds(server.pid));
    const latencies = receiver.arrivals.map((a) => a.latencyMs);
    const p99 = percentile(latencies, 99);
    console.log(
      `\n${database === 'pglite' ? 'embedded (PGlite)' : 'PostgreSQL'}: ${RATE} files/s asked for ${SECONDS} s, into ${ENTRIES} entries in turn`,
    );
    console.log(`stored ${load.stored} files (${(load.stored / load.elapsed).toFixed(0)}/s), ${load.failed} failed`);
    console.log(`records in the log: ${await lastSeq(server, key)}; delivered (each once): ${receiver.arrivals.length}`);
    console.log(
      `latency from record to arrival: p50 ${percentile(latencies, 50)} ms, p99 ${p99} ms, max ${Math.max(...latencies)} ms (target p99 ≤ ${TARGET_P99_MS} ms: ${p99 <= TARGET_P99_MS ? 'met' : 'MISSED'})`,
    );
    console.log(
      `CPU seconds over the load and its deliveries: server ${cpu.server} (its main thread ${cpu.main}), PostgreSQL ${cpu.postgres}, this process (client and receiver) ${cpu.bench}`,
    );
    if (DOWN_SECONDS > 0) await outage(server, key, entries, hook.id, receiver, load.stored + load.failed);
  } finally {
    await server.stop();
    receiver.close();
  }
}

/** The receiver down for DOWN_SECONDS while files keep coming; then everything within the schedule. */
async function outage(server: SiloServer, key: string, entries: string[], hookId: string, receiver: Receiver, first: number) {
  const before = receiver.arrivals.length;
  const seqBefore = await lastSeq(server, key);
  receiver.state.down = true;
  const load = await storeAtRate(server, key, entries, DOWN_RATE, DOWN_SECONDS, first);
  const records = (await lastSeq(server, key)) - seqBefore;
  const bound = await latestNextAttempt(server, key, hookId);
  const up = Date.now();
  receiver.state.down = false;
  // Until every record has arrived, or the schedule's bound and the slack have passed.
  while (receiver.arrivals.length - before < records && Date.now() < bound.latest + DOWN_SLACK_MS + 10_000)
    await new Promise((r) => setTimeout(r, 500));
  const arrived = receiver.arrivals.slice(before);
  const lastArrival = Math.max(up, ...arrived.map((a) => a.at));
  const allArrived = arrived.length >= records;
  const inTime = lastArrival <= Math.max(up, bound.latest) + DOWN_SLACK_MS;
  console.log(
    `receiver down ${DOWN_SECONDS} s (answering 503, ${receiver.state.refused} attempts refused) while ${load.stored} files were stored (${DOWN_RATE}/s asked): ${records} records`,
  );
  console.log(
    `back up: ${arrived.length} of them arrived, the last ${((lastArrival - up) / 1000).toFixed(1)} s after; the schedule's bound (the latest next_attempt_at of the ${bound.pending} pending deliveries) was ${((bound.latest - up) / 1000).toFixed(1)} s after (target: every record, by the bound + ${DOWN_SLACK_MS / 1000} s: ${allArrived && inTime ? 'met' : 'MISSED'})`,
  );
}

async function main() {
  console.log('Silo webhooks benchmark: deliveries of the event log under a write load');
  const wanted = (process.env.BENCH_DATABASES ?? 'postgres').split(',');
  for (const database of ['pglite', 'postgres'] as const) {
    if (!wanted.includes(database)) continue;
    if (database === 'postgres' && !process.env.TEST_DATABASE_URL) {
      console.log('\nPostgreSQL: skipped (TEST_DATABASE_URL is not set)');
      continue;
    }
    await bench(database);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
