// `npm run verify-events [-- --owner ID] [--public-key FILE]`: recomputes every chain of the event
// log straight on the database the server is configured with (same environment and .env files as
// `npm start`), for an operator who trusts no running server. Checkpoint signatures are checked
// with the audit key's public half: --public-key names a PEM file the operator keeps; without it,
// the key the server signs with (AUDIT_SIGNING_KEY or $DATA_DIR/audit-signing-key.pem). A
// checkpoint's RFC 3161 token is checked against its payload and the certificate inside it, which
// must be --tsa-cert FILE (or AUDIT_TSA_CERT) or be issued by it when either is given.
// A deleted workspace's chains are checked by the final record its delete kept. --witness FILE
// takes what a client kept (records, checkpoints, Silo-Event header values: witness-file.ts): each
// must be there with its hash, else its seq is named (a tail cut, or cut and grown again).
// Exit 0: every chain holds; 1: a chain is broken (its first bad record is named); 2: it could not check.
import { createHash, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadEnvConfig } from '@next/env';
import { config } from '../lib/config';
import { openDatabase } from '../lib/db/client';
import { scriptDatabase } from '../lib/db/configured-database';
import { lockExistingEmbedded } from '../lib/db/data-dir-lock';
import { chainName } from '../lib/events/chain';
import { finalRecordHolds } from '../lib/events/deleted-chains';
import { auditKey } from '../lib/events/signing-key';
import { pinnedTsaCert } from '../lib/events/timestamp';
import { verifyChain } from '../lib/events/verify-chain';
import { readWitnesses, witnessesByChain } from '../lib/events/witness-file';

const USAGE = 'usage: npm run verify-events [-- --owner ID] [--public-key FILE] [--tsa-cert FILE] [--witness FILE]';

function options(argv: string[]): { owner?: string; publicKey?: string; tsaCert?: string; witness?: string } {
  const out: { owner?: string; publicKey?: string; tsaCert?: string; witness?: string } = {};
  for (let i = 0; i < argv.length; i++) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === '--owner' && value) out.owner = value;
    else if (flag === '--public-key' && value) out.publicKey = value;
    else if (flag === '--tsa-cert' && value) out.tsaCert = value;
    else if (flag === '--witness' && value) out.witness = value;
    else throw new Error(`unknown option ${flag}\n${USAGE}`);
    i++;
  }
  return out;
}

async function main(): Promise<number> {
  const opts = options(process.argv.slice(2));
  loadEnvConfig(process.cwd(), false, { info: () => {}, error: console.error });
  const c = config();
  if (!c.DATABASE_URL) lockExistingEmbedded(c.DATA_DIR, 'npm run verify-events');
  const key = opts.publicKey ? publicKeyFrom(readFileSync(opts.publicKey, 'utf8')) : await auditKey();
  const tsaCert = opts.tsaCert ? readFileSync(opts.tsaCert, 'utf8') : pinnedTsaCert();
  const kept = opts.witness ? readWitnesses(readFileSync(opts.witness, 'utf8')) : [];
  const db = await openDatabase(scriptDatabase(c));
  try {
    const { byChain, missing } = await witnessesByChain(kept, async (id) => {
      const row = await db.prisma.event.findUnique({ where: { id }, select: { ownerId: true, sandbox: true } });
      return row ? chainName(row) : undefined;
    });
    const chains = await db.prisma.chainHead.findMany({
      where: opts.owner ? { ownerId: opts.owner } : {},
      select: { ownerId: true, sandbox: true },
      orderBy: [{ ownerId: 'asc' }, { sandbox: 'asc' }],
    });
    let broken = 0;
    for (const w of missing) {
      broken++;
      console.log(`record ${w.seq} (id ${w.id}): BROKEN: a witness kept it, but it is not in the log (its chain was cut before it)`);
    }
    const gone = await db.prisma.deletedChain.findMany({ select: { ownerId: true, sandbox: true, seq: true } });
    for (const [name, seen] of byChain)
      if (!chains.some((ch) => chainName(ch) === name) && (!opts.owner || name.startsWith(`${opts.owner}/`))) {
        // a deleted workspace's chain: what a witness kept must lie within its final head
        const last = gone.find((d) => chainName(d) === name)?.seq ?? 0n;
        const beyond = seen.filter((w) => w.seq > Number(last)).sort((a, b) => a.seq - b.seq)[0];
        if (!beyond) continue;
        broken++;
        console.log(
          `${name}: BROKEN at record ${beyond.seq}: a witness kept it, but the chain ${last ? `ended at ${last}` : 'is not there'}`,
        );
      }
    for (const chain of chains) {
      const v = await verifyChain(db.prisma, chain, key, { tsaCert, witnesses: byChain.get(chainName(chain)) });
      if (v.ok)
        console.log(
          `${chainName(chain)}: ok, ${v.checked} records (${v.unsigned_before} from before record signatures), ${v.checkpoints} signed checkpoints (${v.timestamps} time-stamped), head ${v.head.seq} ${v.head.hash}`,
        );
      else {
        broken++;
        console.log(`${chainName(chain)}: BROKEN at record ${v.first_bad_seq}: ${v.reason} (${v.checked} records good before it)`);
      }
    }
    // A deleted workspace's chains are gone; what its delete kept is each chain's final head and
    // record (GET /admin/v1/deleted-chains): the record must still be what the head names.
    const deleted = await db.prisma.deletedChain.findMany({
      where: opts.owner ? { ownerId: opts.owner } : {},
      orderBy: [{ ownerId: 'asc' }, { sandbox: 'asc' }],
    });
    for (const chain of deleted) {
      const name = `${chainName(chain)} (deleted ${chain.deletedAt.toISOString()})`;
      const holds = finalRecordHolds(chain);
      if (holds === false) {
        broken++;
        console.log(`${name}: BROKEN: its kept final record is not the record ${chain.seq} its head names`);
      } else console.log(`${name}: ${holds ? 'ok, final record' : 'no final record kept, head'} ${chain.seq} ${chain.hash}`);
    }
    const all = chains.length + deleted.length + missing.length;
    console.log(broken ? `${broken} of ${all} chains broken` : `${chains.length} chains verified, ${deleted.length} of deleted workspaces`);
    return broken ? 1 : 0;
  } finally {
    await db.close();
  }
}

function publicKeyFrom(pem: string) {
  const publicKey = createPublicKey(pem);
  const keyId = createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex')
    .slice(0, 16);
  return { publicKey, keyId };
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(2);
  },
);
