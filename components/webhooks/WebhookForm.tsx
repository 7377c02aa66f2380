'use client';
// Adding a webhook endpoint: its URL, a description, and the types it gets (all, or some of the
// catalogue's).
import { useState } from 'react';
import { Check } from '@/components/ui/Check';
import { Field } from '@/components/ui/Field';
import { Form } from '@/components/ui/Form';
import type { NewWebhook } from '@/lib/console/hooks/webhooks';
import { ApiFailure } from '@/lib/console/api';
import { EVENT_TYPES } from '@/lib/schemas/event-types';

interface Props {
  onSubmit(input: NewWebhook): void;
  error: unknown;
  pending: boolean;
}

export function WebhookForm({ onSubmit, error, pending }: Props) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [all, setAll] = useState(true);
  const [types, setTypes] = useState<string[]>([]);
  const fields = error instanceof ApiFailure ? error.fields : undefined;
  return (
    <Form
      submit="Add endpoint"
      pendingLabel="Adding…"
      pending={pending}
      error={error}
      onSubmit={() => onSubmit({ url: url.trim(), description, types: all ? ['*'] : types })}
    >
      <Field label="URL" hint="https://… — it receives a signed POST for each record" error={fields?.url}>
        <input type="url" value={url} onChange={(e) => setUrl(e.target.value)} required />
      </Field>
      <Field label="Description" error={fields?.description}>
        <input value={description} onChange={(e) => setDescription(e.target.value)} />
      </Field>
      <fieldset className="stack">
        <legend>Types</legend>
        <Check label="All types" checked={all} onChange={setAll} />
        {!all &&
          Object.keys(EVENT_TYPES).map((t) => (
            <Check
              key={t}
              label={t}
              checked={types.includes(t)}
              onChange={(on) => setTypes((now) => (on ? [...now, t] : now.filter((x) => x !== t)))}
            />
          ))}
        {fields?.types && <small className="field-error">{fields.types}</small>}
      </fieldset>
    </Form>
  );
}
