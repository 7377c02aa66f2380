'use client';
// "Verify": the server recomputes the chain from its first record (GET /silo/v1/events/verify) and
// says whether every record is what its hash says, or which record is the first that is not.
import { Badge } from '@/components/ui/Badge';
import { ErrorNote } from '@/components/ui/ErrorNote';
import { shortHash } from '@/lib/console/format';
import { useVerifyChain } from '@/lib/console/hooks/events';
import type { ChainVerdict } from '@/lib/schemas/records';
import styles from './activity.module.css';

export function VerifyButton({ ownerId, sandbox }: { ownerId: string; sandbox: boolean }) {
  const verify = useVerifyChain(ownerId, sandbox);
  return (
    <button type="button" className="btn" onClick={() => verify.refetch()} disabled={verify.isFetching}>
      {verify.isFetching ? 'Verifying…' : 'Verify'}
    </button>
  );
}

/** The last verdict of this chain, once asked for. */
export function VerifyResult({ ownerId, sandbox }: { ownerId: string; sandbox: boolean }) {
  const verify = useVerifyChain(ownerId, sandbox);
  return (
    <div role="status" aria-live="polite" aria-label="Verification result">
      {verify.error ? <ErrorNote error={verify.error} /> : verify.data && <Verdict verdict={verify.data} />}
    </div>
  );
}

export function Verdict({ verdict: v }: { verdict: ChainVerdict }) {
  const records = `${v.checked} ${v.checked === 1 ? 'record' : 'records'}`;
  const checkpoints = `${v.checkpoints} signed ${v.checkpoints === 1 ? 'checkpoint' : 'checkpoints'}`;
  if (v.ok)
    return (
      <div className={styles.verdict}>
        <Badge tone="good">OK</Badge> The chain is intact: {records} and {checkpoints} checked.
        <p className="muted">
          Head: record {v.head.seq}, <span className="mono">{shortHash(v.head.hash)}</span>
        </p>
      </div>
    );
  return (
    <div className={`${styles.verdict} ${styles.verdictBad}`}>
      <Badge tone="bad">Failed</Badge> The chain is broken at record {v.first_bad_seq}.<p>{v.reason}</p>
      <p className="muted">
        {records} checked before it; last good record {v.head.seq}, <span className="mono">{shortHash(v.head.hash)}</span>
      </p>
    </div>
  );
}
