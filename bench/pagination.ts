// Keyset pagination: the cost of a page deep in a large list against the first page, measured in
// one run (docs/api.md, Entries: a page costs the same however many entries an owner has). Target: ≈ 1×.
// Run: npx tsx bench/pagination.ts   (BENCH_ENTRIES=200000 for a larger list)
import { createOwner } from '../lib/access/create-owner';
import { openDatabase } from '../lib/db/client';
import { auditKey } from '../lib/events/signing-key';
import { listEntries } from '../lib/silo/list-entries';
import { TEST_ACTOR } from '../lib/testing/actor';

const N = Number(process.env.BENCH_ENTRIES ?? 100_000);
const ROUNDS = 30;

async function timePage(run: () => Promise<unknown>): Promise<number> {
  await run();
  const t = performance.now();
  for (let i = 0; i < ROUNDS; i++) await run();
  return (performance.now() - t) / ROUNDS;
}

async function main() {
  const db = await openDatabase({});
  await auditKey(); // signs the records its owners' creation writes
  const owner = await createOwner(db.prisma, 'bench', TEST_ACTOR);
  const other = await createOwner(db.prisma, 'noise', TEST_ACTOR);
  console.log(`Keyset pagination benchmark: ${N} entries (plus as many of another owner)\n`);
  for (const o of [owner.id, other.id])
    await db.sql.exec(`INSERT INTO entries (id, owner_id, sandbox, folder, name, created_at, updated_at)
      SELECT gen_random_uuid(), '${o}', false, 'f' || (i % 10), 'e' || i, now() - (i || ' milliseconds')::interval, now()
      FROM generate_series(1, ${N}) AS i`);
  await db.sql.exec('ANALYZE entries');
  const target = { ownerId: owner.id, sandbox: false };
  // A cursor deep in the list: walk there once with large pages.
  let cursor: string | undefined;
  for (let seen = 0; seen < N - 200; seen += 100)
    cursor = (await listEntries({ db: db.prisma, target, query: { limit: 100, cursor } })).next_cursor;
  const first = await timePage(() => listEntries({ db: db.prisma, target, query: { limit: 20 } }));
  const deep = await timePage(() => listEntries({ db: db.prisma, target, query: { limit: 20, cursor } }));
  const folder = await timePage(() => listEntries({ db: db.prisma, target, query: { limit: 20, cursor, folder: 'f3' } }));
  console.log(`first page:            ${first.toFixed(2)} ms`);
  console.log(`page ${N - 200}+ deep:     ${deep.toFixed(2)} ms = ${(deep / first).toFixed(2)} × the first page (target ≈ 1)`);
  console.log(`deep page, by folder:  ${folder.toFixed(2)} ms = ${(folder / first).toFixed(2)} × the first page`);
  await db.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
