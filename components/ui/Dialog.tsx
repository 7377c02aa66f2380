'use client';
// A modal on the native <dialog>: focus trap, Escape and the backdrop come from the browser.
import { useEffect, useRef, type ReactNode } from 'react';

interface Props {
  open: boolean;
  title: string;
  onClose(): void;
  /** "alertdialog" for a question that interrupts (ConfirmDialog) */
  role?: 'dialog' | 'alertdialog';
  children: ReactNode;
}

export function Dialog({ open, title, onClose, role, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog ref={ref} className="dialog" role={role} aria-label={title} onClose={onClose} onCancel={onClose}>
      {open && (
        <>
          <header className="dialog-head">
            <h2>{title}</h2>
            <button type="button" className="btn-icon" aria-label="Close" onClick={onClose}>
              ×
            </button>
          </header>
          <div className="dialog-body">{children}</div>
        </>
      )}
    </dialog>
  );
}
