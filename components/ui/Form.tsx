'use client';
// The console's form: submits without reloading, shows the failure above one submit button that
// is disabled (and may say so) while the request runs. What `onSubmit` throws before it sends
// (a field that does not parse) shows the same way as what the server answers.
import { useState, type ReactNode } from 'react';
import { ErrorNote } from './ErrorNote';

interface Props {
  onSubmit(): void;
  error: unknown;
  pending: boolean;
  submit: string;
  /** the button's text while pending (it keeps `submit` when not given) */
  pendingLabel?: string;
  children: ReactNode;
}

export function Form({ onSubmit, error, pending, submit, pendingLabel, children }: Props) {
  const [invalid, setInvalid] = useState<unknown>(null);
  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        try {
          setInvalid(null);
          onSubmit();
        } catch (err) {
          setInvalid(err);
        }
      }}
    >
      {children}
      <ErrorNote error={invalid ?? error} />
      <button className="btn-primary" type="submit" disabled={pending}>
        {pending && pendingLabel ? pendingLabel : submit}
      </button>
    </form>
  );
}
