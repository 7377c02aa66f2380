'use client';
// An administrator enrolls an application in a workspace, in one environment: from then on, while
// the enrollment is enabled, the application authorizes with its client credentials and owner_id
// alone. No client secret or owner key passes through the console (docs/api.md, Authorize).
import { useState } from 'react';
import { Field } from '@/components/ui/Field';
import { Form } from '@/components/ui/Form';
import { useToast } from '@/components/ui/Toaster';
import { useApps } from '@/lib/console/hooks/apps';
import { useEnroll } from '@/lib/console/hooks/enrollments';
import { useOwners } from '@/lib/console/hooks/owners';

export function EnrollForm() {
  const apps = useApps();
  const owners = useOwners();
  const toast = useToast();
  const [f, setF] = useState({ app_id: '', owner_id: '', sandbox: false });
  const enroll = useEnroll({
    onSuccess: (e) =>
      toast.show(
        e.disabled
          ? 'Already enrolled, and disabled: enable it in the list below'
          : 'Enrolled: the application may authorize with owner_id alone',
        e.disabled ? 'error' : 'success',
      ),
  });
  return (
    <section className="panel" aria-labelledby="enroll-title">
      <h2 id="enroll-title">Enroll an application</h2>
      <Form onSubmit={() => enroll.mutate(f)} error={enroll.error} pending={enroll.isPending} submit="Enroll">
        <div className="grid-3">
          <Field label="Application">
            <select required value={f.app_id} onChange={(e) => setF({ ...f, app_id: e.target.value })}>
              <option value="">Choose an application…</option>
              {apps.data?.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name} — {a.client_id}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Workspace">
            <select required value={f.owner_id} onChange={(e) => setF({ ...f, owner_id: e.target.value })}>
              <option value="">Choose a workspace…</option>
              {owners.data?.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name} — {o.id.slice(0, 8)}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Environment">
            <select value={f.sandbox ? 'sandbox' : 'live'} onChange={(e) => setF({ ...f, sandbox: e.target.value === 'sandbox' })}>
              <option value="live">Live</option>
              <option value="sandbox">Sandbox</option>
            </select>
          </Field>
        </div>
        <p className="hint" style={{ margin: 0 }}>
          The application then calls <code>POST /access/v1/enrollment/authorize</code> with its client credentials and <code>owner_id</code>{' '}
          (and <code>&quot;sandbox&quot;: true</code> for the sandbox) for a token.
        </p>
      </Form>
    </section>
  );
}
