'use client';
// The dialog after creating a credential: the secrets the API returns only this once, the warning
// to copy them now, and whatever the caller adds below.
import type { ReactNode } from 'react';
import { Dialog } from './Dialog';
import { SecretValue } from './SecretValue';

interface Props {
  title: string;
  /** e.g. "Copy this key now: it is shown only once." */
  warning: string;
  /** nothing shows (and the dialog is closed) while this is undefined */
  secrets: { label: string; value: string }[] | undefined;
  onClose(): void;
  children?: ReactNode;
}

export function ShownOnceDialog({ title, warning, secrets, onClose, children }: Props) {
  return (
    <Dialog open={!!secrets} title={title} onClose={onClose}>
      {secrets && (
        <div className="stack">
          <p className="warn-note">{warning}</p>
          {secrets.map((s) => (
            <SecretValue key={s.label} label={s.label} value={s.value} />
          ))}
          {children}
        </div>
      )}
    </Dialog>
  );
}
