// The auditor's export of one busy year against a real server, on each database (embedded PGlite;
// PostgreSQL when TEST_DATABASE_URL is set, in a database of its own, dropped after): `npm run
// seed` makes EXPORT_YEAR_ENTRIES entries (default 100,000) all in last year — about 2.6 versions
// each, the size of one year of bench/million.ts's million — the server starts (its blob sweep
// waited for), and GET /silo/v1/export of that year is streamed by curl to /dev/null. Printed: the
// versions and bytes, the time, and the server's RSS before and at its peak. Target (issue 25:
// "the auditor's export of one year in bounded memory"; issue 22: ≤ 100 MB growth): peak − before.
// Run: npx tsx bench/export-year.ts  (EXPORT_YEAR_ENTRIES=20000 for a quick run;
// EXPORT_YEAR_DATABASES=postgres or =pglite for one database, both by default)
import { rm } from 'node:fs/promises';
import { startServer, type SiloServer } from '../e2e/fixtures/server';
import { benchPlace, exportYear, seed, startupSweep } from './million';

const ENTRIES = Number(process.env.EXPORT_YEAR_ENTRIES ?? 100_000);
const YEAR = String(new Date().getUTCFullYear() - 1);

async function bench(database: 'pglite' | 'postgres') {
  const { dataDir, pgdb, env } = await benchPlace(database, 'export-year');
  let server: SiloServer | undefined;
  try {
    const s = await seed(env, ENTRIES, ['--years', '1']);
    console.log(`${database}: seeded ${ENTRIES} entries in ${YEAR} in ${s.own.toFixed(1)} s`);
    server = await startServer({ database, dataDir, databaseUrl: pgdb?.url });
    const swept = await startupSweep(server);
    console.log(`${database}: start-up blob sweep over ${swept.blobs} blobs in ${swept.seconds.toFixed(0)} s`);
    const exp = await exportYear(server, { key: s.key, year: YEAR });
    const recorded = /"versions":(\d+)/.exec(
      await (
        await fetch(`${server.url}/silo/v1/events?type=export.created&limit=1`, { headers: { Authorization: `Bearer ${s.key}` } })
      ).text(),
    );
    const growth = Math.max(0, exp.peak - exp.baseline);
    console.log(
      `${database}: export of ${YEAR}: ${recorded?.[1] ?? '?'} versions, ${(exp.bytes / 1e6).toFixed(0)} MB in ${exp.seconds.toFixed(1)} s (${(exp.bytes / 1e6 / exp.seconds).toFixed(1)} MB/s); server RSS ${exp.baseline.toFixed(0)} MB before, peak ${exp.peak.toFixed(0)} MB: +${growth.toFixed(0)} MB (target ≤ 100: ${growth <= 100 ? 'met' : 'MISSED'})`,
    );
  } finally {
    await server?.stop();
    await pgdb?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  console.log(`The auditor's export of one year of ${ENTRIES} entries\n`);
  const only = process.env.EXPORT_YEAR_DATABASES?.split(',');
  if (!only || only.includes('pglite')) await bench('pglite');
  if (only && !only.includes('postgres')) return;
  if (process.env.TEST_DATABASE_URL) await bench('postgres');
  else console.log('\n(PostgreSQL skipped: TEST_DATABASE_URL is not set)');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
