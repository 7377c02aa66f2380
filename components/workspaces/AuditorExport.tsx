'use client';
// "Export for an auditor" on a workspace: a period (whole UTC days) and the environment, then the
// signed ZIP downloaded with its progress (docs/api.md, Export; docs/compliance.md, For an auditor).
import { useRef, useState } from 'react';
import { Dialog } from '@/components/ui/Dialog';
import { Field } from '@/components/ui/Field';
import { ProgressBar } from '@/components/ui/ProgressBar';
import { ApiFailure } from '@/lib/console/api';
import { downloadExport, type ExportProgress } from '@/lib/console/export-download';

const day = (d: Date) => d.toISOString().slice(0, 10);
const mib = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;

export function AuditorExport({ ownerId }: { ownerId: string }) {
  const [open, setOpen] = useState(false);
  const now = new Date();
  const [from, setFrom] = useState(`${now.getUTCFullYear()}-01-01`);
  const [to, setTo] = useState(day(now));
  const [sandbox, setSandbox] = useState(false);
  const [progress, setProgress] = useState<ExportProgress | undefined>();
  const [error, setError] = useState<ApiFailure | undefined>();
  const [done, setDone] = useState<string | undefined>();
  const abort = useRef<AbortController | undefined>(undefined);

  const close = () => {
    abort.current?.abort();
    setOpen(false);
    setProgress(undefined);
    setError(undefined);
    setDone(undefined);
  };

  async function start(e: React.FormEvent) {
    e.preventDefault();
    setError(undefined);
    setDone(undefined);
    const ctrl = new AbortController();
    abort.current = ctrl;
    setProgress({ received: 0, total: 0 });
    try {
      const { blob, name } = await downloadExport({ owner: ownerId, sandbox, from, to, signal: ctrl.signal, onProgress: setProgress });
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = name;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      setDone(name);
    } catch (err) {
      if ((err as Error).name !== 'AbortError') setError(err instanceof ApiFailure ? err : new ApiFailure(String(err), 0, 'unknown'));
    } finally {
      setProgress(undefined);
      abort.current = undefined;
    }
  }

  return (
    <>
      <button type="button" className="btn" onClick={() => setOpen(true)}>
        Export for an auditor
      </button>
      <Dialog open={open} title="Export for an auditor" onClose={close}>
        <form onSubmit={start} className="form">
          <p className="muted">
            Every file version stored in the period (UTC days, both included), with its tables for audit software (GDPdU), the event
            log&apos;s records and a signed manifest. Check it with <code>npm run verify-export</code>.
          </p>
          <Field label="From" error={error?.fields?.from}>
            <input type="date" value={from} required onChange={(e) => setFrom(e.target.value)} disabled={!!progress} />
          </Field>
          <Field label="To" error={error?.fields?.to}>
            <input type="date" value={to} required onChange={(e) => setTo(e.target.value)} disabled={!!progress} />
          </Field>
          <label className="check">
            <input type="checkbox" checked={sandbox} onChange={(e) => setSandbox(e.target.checked)} disabled={!!progress} /> Sandbox
            environment
          </label>
          {progress && (
            <div aria-live="polite">
              <ProgressBar label="Export downloaded" value={progress.total ? progress.received / progress.total : 0} />
              <small className="muted">
                {progress.total ? `${mib(progress.received)} of ${mib(progress.total)}` : 'Preparing the export…'}
              </small>
            </div>
          )}
          {error && !error.fields && (
            <p role="alert" className="field-error">
              {error.message}
            </p>
          )}
          {done && <p role="status">Downloaded {done}</p>}
          <div className="form-actions">
            {progress ? (
              <button type="button" className="btn" onClick={() => abort.current?.abort()}>
                Cancel
              </button>
            ) : (
              <button type="submit" className="btn btn-primary">
                Export
              </button>
            )}
          </div>
        </form>
      </Dialog>
    </>
  );
}
