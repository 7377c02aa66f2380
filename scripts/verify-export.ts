// `npm run verify-export -- FILE.zip [--public-key FILE]`: checks an auditor's export (docs/api.md,
// Export) without a server or a database: every byte of the ZIP, every member against manifest.json,
// manifest.sig, the event records' chain into a signed checkpoint, every version of files.csv present
// with its sha256. --public-key: the audit key's public half (PEM, GET /utils/v1/audit-key's
// public_key) to check the signatures with; without it, the key in manifest.json, and it says so.
// --witness FILE: records, checkpoints or Silo-Event values a client kept (lib/events/witness-file.ts);
// each of the export's chain must be among its records with its hash (a cut tail is named).
// Exit 0: OK; 1: the first mismatch, named; 2: it could not check (usage, unreadable file).
import { createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readWitnesses } from '../lib/events/witness-file';
import { verifyExport } from '../lib/silo/export/verify-export';

const USAGE = 'usage: npm run verify-export -- FILE.zip [--public-key FILE] [--witness FILE]';

function options(argv: string[]): { file: string; publicKey?: string; witness?: string } {
  let file: string | undefined;
  let publicKey: string | undefined;
  let witness: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--public-key' && argv[i + 1]) publicKey = argv[++i];
    else if (argv[i] === '--witness' && argv[i + 1]) witness = argv[++i];
    else if (!argv[i].startsWith('--') && !file) file = argv[i];
    else throw new Error(`unknown option ${argv[i]}\n${USAGE}`);
  }
  if (!file) throw new Error(USAGE);
  return { file, publicKey, witness };
}

async function main(): Promise<number> {
  const opts = options(process.argv.slice(2));
  const publicKey = opts.publicKey ? createPublicKey(readFileSync(opts.publicKey, 'utf8')) : undefined;
  try {
    const witnesses = opts.witness ? readWitnesses(readFileSync(opts.witness, 'utf8')) : undefined;
    const v = await verifyExport(opts.file, { publicKey, witnesses });
    console.log(
      `OK: ${v.chain}, ${v.period.from} to ${v.period.to}: ${v.members} members, ${v.versions} versions, ${v.events} event records, ${v.checkpoints} signed checkpoints (key ${v.key_id}), ${v.timestamps} time-stamped`,
    );
    for (const note of v.notes) console.log(`note: ${note}`);
    return 0;
  } catch (err) {
    if ((err as Error).name !== 'ExportBroken') throw err;
    console.log(`BROKEN: ${(err as Error).message}`);
    return 1;
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(2);
  },
);
