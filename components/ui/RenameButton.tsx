'use client';
// A button that opens a dialog to rename something: the name field starts with the current name;
// the dialog closes once `rename` succeeds and shows its failure otherwise.
import { useState } from 'react';
import { Dialog } from './Dialog';
import { Field } from './Field';
import { Form } from './Form';

interface Props {
  /** the dialog's title and the button's accessible name, e.g. "Rename workspace" */
  title: string;
  /** the name field's label */
  label: string;
  name: string;
  rename(name: string): Promise<unknown>;
  className?: string;
  ariaLabel?: string;
}

export function RenameButton({ title, label, name, rename, className = 'btn', ariaLabel }: Props) {
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState(name);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const start = () => {
    setValue(name);
    setError(null);
    setOpen(true);
  };
  const submit = () => {
    setPending(true);
    setError(null);
    rename(value)
      .then(() => setOpen(false))
      .catch(setError)
      .finally(() => setPending(false));
  };
  return (
    <>
      <button type="button" className={className} aria-label={ariaLabel ?? title} onClick={start}>
        Rename
      </button>
      <Dialog open={open} title={title} onClose={() => setOpen(false)}>
        <Form onSubmit={submit} error={error} pending={pending} submit="Save name">
          <Field label={label}>
            <input required autoFocus value={value} onChange={(e) => setValue(e.target.value)} />
          </Field>
        </Form>
      </Dialog>
    </>
  );
}
