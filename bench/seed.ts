// `npm run seed -- --entries N [--batch B] [--name NAME] [--years Y]`: a NEW workspace of N realistic
// entries (lib/testing/seed-workspace.ts: folders by year and month over Y years, 10 by default,
// ending with last year; two or three versions of a small UBL or CII invoice each with its facts,
// a PDF on every fourth entry, and the event log's records of it all) on the database the server is configured with (same environment and
// .env files as `npm start`: DATABASE_URL, else the embedded database under DATA_DIR, which the
// server must not have open). Made in the database, a batch a statement: no API, no row at a time.
// With DATABASE_OWNER_URL it runs as that role, the one script that does: it writes the event log's
// records and moves the chain's head in bulk, which the server's role may not (lib/db/runtime-grants.ts).
// Progress goes to stderr; the last line on stdout is {"owner_id", "api_key"} (the live key).
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { loadEnvConfig } from '@next/env';
import { config } from '../lib/config';
import { openDatabase } from '../lib/db/client';
import { scriptDatabase } from '../lib/db/configured-database';
import { DataDirInUse, embeddedLockFile, lockDataDir } from '../lib/db/data-dir-lock';
import { auditKey } from '../lib/events/signing-key';
import { seedWorkspace } from '../lib/testing/seed-workspace';

const USAGE = 'usage: npm run seed -- --entries N [--batch B] [--name NAME] [--years Y]';

function options(argv: string[]): { entries: number; batch?: number; name?: string; years?: number } {
  const out: { entries?: number; batch?: number; name?: string; years?: number } = {};
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    const count = () => {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1 || n > 9_999_999) throw new Error(`${flag} takes a whole number from 1 to 9,999,999\n${USAGE}`);
      return n;
    };
    if (flag === '--entries') out.entries = count();
    else if (flag === '--batch') out.batch = count();
    else if (flag === '--name' && value) out.name = value;
    else if (flag === '--years') out.years = Math.min(count(), 100);
    else throw new Error(`unknown option ${flag}\n${USAGE}`);
  }
  if (!out.entries) throw new Error(USAGE);
  return { ...out, entries: out.entries };
}

async function main(): Promise<number> {
  const opts = options(process.argv.slice(2));
  loadEnvConfig(process.cwd(), false, { info: () => {}, error: console.error });
  const c = config();
  if (!c.DATABASE_URL) {
    mkdirSync(c.DATA_DIR, { recursive: true });
    try {
      lockDataDir(embeddedLockFile(c.DATA_DIR), 'npm run seed');
    } catch (err) {
      if (err instanceof DataDirInUse) {
        console.error(`seed: ${err.message}`);
        return 2;
      }
      throw err;
    }
  }
  const where = c.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `the embedded database in ${path.join(c.DATA_DIR, 'db')}`;
  const fresh = !c.DATABASE_URL && !existsSync(path.join(c.DATA_DIR, 'db', 'PG_VERSION'));
  console.error(`seed: ${opts.entries} entries into ${where}${fresh ? ' (new)' : ''}`);
  const owner = c.DATABASE_OWNER_URL;
  const db = await openDatabase(owner ? { ...scriptDatabase(c), url: owner } : scriptDatabase(c));
  try {
    const started = performance.now();
    let shown = started;
    const made = await seedWorkspace(db, {
      entries: opts.entries,
      batch: opts.batch,
      name: opts.name,
      years: opts.years,
      key: await auditKey(),
      progress: (n) => {
        const now = performance.now();
        if (now - shown < 5_000 && n < opts.entries) return;
        shown = now;
        const s = (now - started) / 1000;
        console.error(`seed: ${n} entries, ${s.toFixed(0)} s, ${Math.round(n / s)} entries/s`);
      },
    });
    const s = (performance.now() - started) / 1000;
    console.error(`seed: done, ${opts.entries} entries in ${s.toFixed(1)} s (${Math.round(opts.entries / s)} entries/s, tables analysed)`);
    console.log(JSON.stringify(made));
    return 0;
  } finally {
    await db.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(2);
  },
);
