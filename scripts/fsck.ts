// `npm run fsck [-- --fix] [--quick]`: checks the blob store against the database the server is
// configured with (same environment and .env files as `npm start`). Exit 0: every referenced blob
// is there with the right size and bytes (and, on a local disk, still read-only); 1: some are
// missing, damaged or writable, a retained or held version's blob is gone, or a version the event
// log recorded is gone with no record of its delete; 2: it could not check. --fix frees
// unreferenced blobs and drops dead held copies; --quick compares sizes (and file modes), not
// bytes (the other checks read only the database, and run either way).
import { loadEnvConfig } from '@next/env';
import { config } from '../lib/config';
import { openDatabase, setDatabase } from '../lib/db/client';
import { scriptDatabase } from '../lib/db/configured-database';
import { lockExistingEmbedded } from '../lib/db/data-dir-lock';
import { fsck, type FsckReport, hasProblems } from '../lib/silo/fsck';
import { bindStore } from '../lib/silo/store-binding';
import { blobStore } from '../lib/storage';
import { DatabaseStore } from '../lib/storage/database-store';

const SHOWN = 50;

async function main(): Promise<number> {
  const args = new Set(process.argv.slice(2));
  for (const a of args)
    if (!['--fix', '--quick'].includes(a)) {
      console.error(`unknown option ${a}\nusage: npm run fsck [-- --fix] [--quick]`);
      return 2;
    }
  loadEnvConfig(process.cwd(), false, { info: () => {}, error: console.error });
  const c = config();
  if (!c.DATABASE_URL) lockExistingEmbedded(c.DATA_DIR, 'npm run fsck');
  const db = await openDatabase(scriptDatabase(c));
  setDatabase(db);
  try {
    // What the server reads, small blobs in the database included; each read from the database itself, not a cache.
    const store = new DatabaseStore(db.prisma, blobStore(), { keepUpTo: c.SMALL_BLOB_MAX_BYTES, cache: false });
    const id = await bindStore(db.prisma, store);
    console.log(`database: ${c.DATABASE_URL ? 'PostgreSQL' : `embedded, ${c.DATA_DIR}/db`} (id ${id})`);
    console.log(`blob store: ${c.storageDir}`);
    let last = Date.now();
    const report = await fsck(db.prisma, store, {
      fix: args.has('--fix'),
      verifyBytes: !args.has('--quick'),
      progress: (n) => {
        if (Date.now() - last < 10_000) return;
        last = Date.now();
        console.error(`… ${n} referenced blobs checked`);
      },
    });
    print(report, { fix: args.has('--fix'), quick: args.has('--quick') });
    return hasProblems(report) ? 1 : 0;
  } finally {
    await db.close();
  }
}

function print(r: FsckReport, o: { fix: boolean; quick: boolean }) {
  console.log(
    `referenced: ${r.referenced.blobs} blobs, ${bytes(r.referenced.bytes)} (${o.quick ? 'sizes' : 'sizes and sha256'} checked; on a local disk, that each file is read-only)`,
  );
  for (const b of r.bad.slice(0, SHOWN)) {
    const what =
      b.problem === 'missing'
        ? 'MISSING'
        : b.problem === 'wrong_size'
          ? `WRONG SIZE ${b.actual?.size} bytes, should be ${b.size}`
          : b.problem === 'writable'
            ? `WRITABLE (stored read-only; its ${o.quick ? 'size is' : 'bytes are'} right, but it may have been changed and changed back)`
            : `WRONG BYTES (they hash to ${b.actual?.hash})`;
    console.log(
      `  ${what}  ${b.hash}  ${b.files} file(s), e.g. "${b.example.name}" (file ${b.example.fileId}, entry ${b.example.entryId})`,
    );
  }
  if (r.bad.length > SHOWN) console.log(`  … and ${r.bad.length - SHOWN} more`);
  printGuarded(r);
  console.log(`unreferenced: ${r.unreferenced.length} blobs, ${bytes(r.unreferenced.reduce((n, b) => n + b.size, 0))}`);
  for (const b of r.unreferenced.slice(0, SHOWN)) console.log(`  ${b.hash}  ${bytes(b.size)}  ${b.modifiedAt.toISOString()}`);
  if (r.unreferenced.length > SHOWN) console.log(`  … and ${r.unreferenced.length - SHOWN} more`);
  console.log(`held upload copies: ${r.held.length}`);
  for (const h of r.held.slice(0, SHOWN)) console.log(`  ${h.uploadId}  ${bytes(h.size)}  ${h.state}  ${h.modifiedAt.toISOString()}`);
  if (o.fix) console.log(`fixed: freed ${r.freed} unreferenced blobs, dropped ${r.dropped} held copies`);
  else if (r.unreferenced.length) console.log('run with --fix to free the unreferenced blobs');
  console.log(
    hasProblems(r)
      ? `PROBLEMS: ${r.bad.length} referenced blob(s) missing, damaged or writable; ${r.retainedGone.length} blob(s) of retained or held versions gone; ${r.vanished.length} version(s) gone without a record of their delete`
      : 'OK: every referenced blob is there, intact; every version the event log recorded is there or recorded deleted',
  );
}

/** What someone did past the database's guards (lib/silo/retained-gone.ts, vanished-versions.ts). */
function printGuarded(r: FsckReport) {
  console.log(`retained or held versions whose blob is gone: ${r.retainedGone.length} blob(s)`);
  for (const g of r.retainedGone.slice(0, SHOWN)) {
    const e = g.examples[0];
    const why = [e.retention && `${e.retention.mode} until ${e.retention.retainUntil.toISOString()}`, e.legalHold && 'legal hold']
      .filter(Boolean)
      .join(', ');
    const what = g.gone === 'bytes' ? 'BYTES GONE' : 'ROW OF blobs GONE (bytes still there)';
    console.log(`  ${what}  ${g.hash}  ${g.versions} version(s), e.g. "${e.name}" (file ${e.fileId}, entry ${e.entryId}; ${why})`);
  }
  if (r.retainedGone.length > SHOWN) console.log(`  … and ${r.retainedGone.length - SHOWN} more`);
  console.log(`versions the event log recorded whose row is gone, no delete recorded: ${r.vanished.length}`);
  for (const v of r.vanished.slice(0, SHOWN))
    console.log(
      `  GONE  file ${v.fileId} (entry ${v.entryId}, "${v.name}" v${v.version ?? '?'}): ${v.type} seq ${v.seq} of workspace ${v.ownerId}${v.sandbox ? ' (sandbox)' : ''}, ${v.at.toISOString()}`,
    );
  if (r.vanished.length > SHOWN) console.log(`  … and ${r.vanished.length - SHOWN} more`);
}

function bytes(n: number) {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${i ? n.toFixed(1) : n} ${units[i]}`;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`fsck cannot run: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(2);
  },
);
