'use client';
// Description, meta, private and embeddable of a file (no new version).
import { useState } from 'react';
import { Check } from '@/components/ui/Check';
import { Field } from '@/components/ui/Field';
import { Form } from '@/components/ui/Form';
import { useToast } from '@/components/ui/Toaster';
import { fieldErrors } from '@/lib/console/api';
import { useUpdateFile } from '@/lib/console/hooks/files';
import { metaToText, textToMeta } from '@/lib/console/meta';
import type { FileRecord } from '@/lib/schemas/records';

export function EditFileForm({ file, onDone }: { file: FileRecord; onDone(): void }) {
  const toast = useToast();
  const update = useUpdateFile(file.entry_id, {
    onSuccess: () => {
      toast.show('File updated', 'success');
      onDone();
    },
  });
  const [desc, setDesc] = useState(file.desc);
  const [meta, setMeta] = useState(metaToText(file.meta));
  const [priv, setPriv] = useState(file.private);
  const [embeddable, setEmbeddable] = useState(file.embeddable);
  const fields = fieldErrors(update.error);
  return (
    <Form
      onSubmit={() => update.mutate({ id: file.id, patch: { desc, meta: textToMeta(meta), private: priv, embeddable } })}
      error={update.error}
      pending={update.isPending}
      submit="Save"
    >
      <Field label="Description" error={fields?.desc}>
        <input value={desc} onChange={(e) => setDesc(e.target.value)} />
      </Field>
      <Field label="Meta" hint="One key = value per line" error={fields?.meta}>
        <textarea value={meta} onChange={(e) => setMeta(e.target.value)} />
      </Field>
      <div className="row">
        <Check label="Private (no public link)" checked={priv} onChange={setPriv} />
        <Check label="Embeddable" checked={embeddable} onChange={setEmbeddable} />
      </div>
    </Form>
  );
}
