'use client';
// Creates an entry in the workspace and environment being browsed, then opens it.
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Field } from '@/components/ui/Field';
import { Form } from '@/components/ui/Form';
import { useToast } from '@/components/ui/Toaster';
import { fieldErrors } from '@/lib/console/api';
import { useCreateEntry } from '@/lib/console/hooks/entries';
import { textToMeta } from '@/lib/console/meta';

export function NewEntryForm({ ownerId, sandbox }: { ownerId: string; sandbox: boolean }) {
  const [form, setForm] = useState({ name: '', folder: '', key: '', meta: '' });
  const router = useRouter();
  const toast = useToast();
  const create = useCreateEntry(ownerId, sandbox, {
    onSuccess: (e) => {
      toast.show('Entry created', 'success');
      router.push(`/workspaces/${ownerId}/entries/${e.id}`);
    },
  });
  const set = (k: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    setForm({ ...form, [k]: e.target.value });
  const fields = fieldErrors(create.error);
  return (
    <Form
      onSubmit={() =>
        create.mutate({ name: form.name, folder: form.folder, ...(form.key ? { key: form.key } : {}), meta: textToMeta(form.meta) })
      }
      error={create.error}
      pending={create.isPending}
      submit="Create entry"
    >
      <p className="muted">In the {sandbox ? 'sandbox' : 'live'} environment.</p>
      <Field label="Name" error={fields?.name}>
        {/* biome-ignore lint/a11y/noAutofocus: the form opens on the user's click; focusing its first field is what they asked for */}
        <input autoFocus value={form.name} onChange={set('name')} placeholder="Invoice 2026-0042" />
      </Field>
      <Field label="Folder" error={fields?.folder}>
        <input value={form.folder} onChange={set('folder')} placeholder="invoices/2026" />
      </Field>
      <Field label="Key" hint="Optional; unique in the workspace" error={fields?.key}>
        <input value={form.key} onChange={set('key')} />
      </Field>
      <Field label="Meta" hint="One key = value per line" error={fields?.meta}>
        <textarea value={form.meta} onChange={set('meta')} />
      </Field>
    </Form>
  );
}
