// Webhooks under a write load (issue 24): files stored through the API at a steady rate on
// PostgreSQL, one endpoint subscribed to every record on a loopback receiver that answers 204 at
// once; for each delivery, the time from its record (`at`, stamped in the change's own
// transaction) to its arrival. Prints the rate reached, the records delivered and the latency's
// p50 / p99 / max against the target (p99 ≤ 2 s).
// Run: npx tsx bench/webhooks.ts (after a build; needs TEST_DATABASE_URL, else it is skipped;
// BENCH_RATE=200 files/s, BENCH_SECONDS=20, BENCH_ENTRIES=100; BENCH_DATABASES=pglite for the
// embedded database)
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startServer, type SiloServer } from '../e2e/fixtures/server';

const RATE = Number(process.env.BENCH_RATE ?? 200);
// Files go to this many entries in turn, as invoices do (one entry each): an entry's records are
// delivered one after another (docs/api.md, Webhooks: order per entry), unrelated entries' side by side.
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const MAX_IN_FLIGHT = 64;
const TARGET_P99_MS = 2000;

interface Arrival {
  id: string;
  latencyMs: number;
}

async function startReceiver() {
  const arrivals: Arrival[] = [];
  const seen = new Set<string>();
  const server = http.createServer((req, res) => {
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
          arrivals.push({ id, latencyMs: now - Date.parse(body.at) });
        }
      } catch {}
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, arrivals, close: () => server.close() };
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

async function bench(database: 'pglite' | 'postgres') {
  const receiver = await startReceiver();
  const server = await startServer({ database, env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' } });
  try {
    const owner = await api(server, 'POST', '/admin/v1/owners', server.adminKey, { name: 'bench' });
    const key = owner.api_keys[0].key as string;
    const entries: string[] = [];
    for (let i = 0; i < ENTRIES; i++) entries.push((await api(server, 'POST', '/silo/v1/entries', key, { name: `invoice ${i}` })).id);
    await api(server, 'POST', '/silo/v1/webhooks', key, { url: receiver.url, types: ['*'] });
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
        await api(server, 'POST', `/silo/v1/entries/${entries[n % ENTRIES]}/files`, key, body);
        stored++;
      } catch {
        failed++;
      } finally {
        inFlight--;
      }
    };
    // A steady rate: the n-th request starts at n / RATE seconds, unless MAX_IN_FLIGHT are waiting.
    const pending: Promise<void>[] = [];
    while (Date.now() - started < SECONDS * 1000) {
      const due = Math.floor(((Date.now() - started) / 1000) * RATE);
      while (sent < due && inFlight < MAX_IN_FLIGHT) pending.push(post(sent++));
      await new Promise((r) => setTimeout(r, 2));
    }
    await Promise.all(pending);
    const elapsed = (Date.now() - started) / 1000;
    // Every change writes records (the files' and the entry's); wait until the deliveries stop coming.
    let last = -1;
    for (let quiet = 0; quiet < 6; ) {
      await new Promise((r) => setTimeout(r, 500));
      if (receiver.arrivals.length === last) quiet++;
      else quiet = 0;
      last = receiver.arrivals.length;
    }
    const events = (await api(server, 'GET', '/silo/v1/events?limit=1&order=desc', key)) as { list: { seq: number }[] };
    const latencies = receiver.arrivals.map((a) => a.latencyMs);
    const p99 = percentile(latencies, 99);
    console.log(
      `\n${database === 'pglite' ? 'embedded (PGlite)' : 'PostgreSQL'}: ${RATE} files/s asked for ${SECONDS} s, into ${ENTRIES} entries in turn`,
    );
    console.log(`stored ${stored} files (${(stored / elapsed).toFixed(0)}/s), ${failed} failed`);
    console.log(`records in the log: ${events.list[0]?.seq ?? '?'}; delivered (each once): ${receiver.arrivals.length}`);
    console.log(
      `latency from record to arrival: p50 ${percentile(latencies, 50)} ms, p99 ${p99} ms, max ${Math.max(...latencies)} ms (target p99 ≤ ${TARGET_P99_MS} ms: ${p99 <= TARGET_P99_MS ? 'met' : 'MISSED'})`,
    );
  } finally {
    await server.stop();
    receiver.close();
  }
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
