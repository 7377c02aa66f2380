'use client';
// Registers an application; the caller shows its credentials (the secret only this once).
import { useState } from 'react';
import { Check } from '@/components/ui/Check';
import { Field } from '@/components/ui/Field';
import { Form } from '@/components/ui/Form';
import { useCreateApp } from '@/lib/console/hooks/apps';
import type { App } from '@/lib/schemas/records';

export function NewAppForm({ onCreated }: { onCreated(a: App): void }) {
  const [name, setName] = useState('');
  const [trusted, setTrusted] = useState(false);
  const create = useCreateApp({ onSuccess: onCreated });
  return (
    <Form onSubmit={() => create.mutate({ name, trusted })} error={create.error} pending={create.isPending} submit="Register">
      <Field label="Application name">
        {/* biome-ignore lint/a11y/noAutofocus: the form opens on the user's click; focusing its first field is what they asked for */}
        <input required autoFocus value={name} onChange={(e) => setName(e.target.value)} />
      </Field>
      <Check label="Trusted: may authorize with an owner id alone" checked={trusted} onChange={setTrusted} />
      <p className="hint">An untrusted application needs the owner's API key to create an enrollment.</p>
    </Form>
  );
}
