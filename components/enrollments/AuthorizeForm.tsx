'use client';
// Calls POST /access/v1/enrollment/authorize as an application would, and shows the enrollment
// with its token and a live countdown to the token's expiry.
import { useState } from 'react';
import { EnvironmentBadge } from '@/components/ui/Badge';
import { Check } from '@/components/ui/Check';
import { Field } from '@/components/ui/Field';
import { Form } from '@/components/ui/Form';
import { SecretValue } from '@/components/ui/SecretValue';
import { useAuthorize } from '@/lib/console/hooks/enrollments';
import { useOwners } from '@/lib/console/hooks/owners';
import { Countdown } from './Countdown';

export function AuthorizeForm() {
  const owners = useOwners();
  const [f, setF] = useState({
    client_id: '',
    client_secret: '',
    by: 'owner' as 'owner' | 'id',
    owner_id: '',
    id: '',
    owner_key: '',
    sandbox: false,
  });
  const set = (k: keyof typeof f) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setF({ ...f, [k]: e.target.value });
  const authorize = useAuthorize();
  const submit = () =>
    authorize.mutate({
      client_id: f.client_id.trim(),
      client_secret: f.client_secret.trim(),
      owner_key: f.owner_key.trim() || undefined,
      ...(f.by === 'owner' ? { owner_id: f.owner_id.trim() } : { id: f.id.trim() }),
      ...(f.by === 'owner' && f.sandbox ? { sandbox: true } : {}),
    });
  const e = authorize.data;
  return (
    <section className="panel" aria-labelledby="authorize-title">
      <h2 id="authorize-title">Authorize an enrollment</h2>
      <Form onSubmit={submit} error={authorize.error} pending={authorize.isPending} submit="Authorize">
        <div className="grid-2">
          <Field label="Client ID">
            <input required value={f.client_id} onChange={set('client_id')} autoComplete="off" />
          </Field>
          <Field label="Client secret">
            <input required type="password" value={f.client_secret} onChange={set('client_secret')} autoComplete="off" />
          </Field>
        </div>
        <fieldset className="row" style={{ border: 0, padding: 0, margin: 0 }}>
          <legend className="sr-only">Identify the enrollment by</legend>
          <label className="check">
            <input type="radio" name="by" checked={f.by === 'owner'} onChange={() => setF({ ...f, by: 'owner' })} /> Owner
          </label>
          <label className="check">
            <input type="radio" name="by" checked={f.by === 'id'} onChange={() => setF({ ...f, by: 'id' })} /> Enrollment ID
          </label>
        </fieldset>
        {f.by === 'owner' ? (
          <div className="grid-2">
            <Field label="Owner (workspace)">
              <select required value={f.owner_id} onChange={set('owner_id')}>
                <option value="">Choose a workspace…</option>
                {owners.data?.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.name} — {o.id.slice(0, 8)}
                  </option>
                ))}
              </select>
            </Field>
            <Field label="Owner API key" hint="Needed unless the application is trusted; sent as X-Owner-Key">
              <input value={f.owner_key} onChange={set('owner_key')} autoComplete="off" />
            </Field>
            <Check label="Sandbox (trusted applications)" checked={f.sandbox} onChange={(v) => setF({ ...f, sandbox: v })} />
          </div>
        ) : (
          <Field label="Enrollment ID">
            <input required value={f.id} onChange={set('id')} className="mono" />
          </Field>
        )}
      </Form>
      {e?.token && (
        <div className="stack" style={{ marginTop: '1rem' }} data-testid="authorized">
          <div className="row">
            <strong>Enrollment</strong> <code>{e.id}</code>
            <EnvironmentBadge sandbox={e.sandbox} />
            {e.token_expires && <Countdown until={e.token_expires} />}
          </div>
          <SecretValue label="Token (send as Authorization: Bearer …)" value={e.token} />
          <details>
            <summary>Enrollment record</summary>
            <pre className="mono" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
              {JSON.stringify({ ...e, token: '…' }, null, 2)}
            </pre>
          </details>
        </div>
      )}
    </section>
  );
}
