'use client';
// A button for an action that cannot be undone: it opens a styled confirmation (a modal dialog:
// Escape or Cancel backs out, focus starts on Cancel and returns to the button) instead of the
// browser's confirm(), and runs `onConfirm` only on the explicit answer.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Dialog } from './Dialog';

interface Props {
  /** the question, e.g. "Revoke this key?"; it names the dialog */
  title: string;
  /** what happens, in a sentence */
  message?: ReactNode;
  /** the text of the button in the dialog that does it */
  confirm: string;
  onConfirm(): void;
  className?: string;
  'aria-label'?: string;
  disabled?: boolean;
  children: ReactNode;
}

export function ConfirmButton({ title, message, confirm, onConfirm, className = 'btn-danger', disabled, children, ...rest }: Props) {
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    trigger.current?.focus();
  };
  return (
    <>
      <button
        ref={trigger}
        type="button"
        className={className}
        aria-label={rest['aria-label']}
        disabled={disabled}
        onClick={() => setOpen(true)}
      >
        {children}
      </button>
      <ConfirmDialog
        open={open}
        title={title}
        message={message}
        confirm={confirm}
        onCancel={close}
        onConfirm={() => {
          close();
          onConfirm();
        }}
      />
    </>
  );
}

interface DialogProps {
  open: boolean;
  title: string;
  message?: ReactNode;
  confirm: string;
  onCancel(): void;
  onConfirm(): void;
}

export function ConfirmDialog({ open, title, message, confirm, onCancel, onConfirm }: DialogProps) {
  const cancel = useRef<HTMLButtonElement>(null);
  // Runs after the Dialog has called showModal (child effects first), so it wins the focus.
  useEffect(() => {
    if (open) cancel.current?.focus();
  }, [open]);
  return (
    <Dialog open={open} title={title} onClose={onCancel} role="alertdialog">
      {message && <p className="confirm-message">{message}</p>}
      <div className="confirm-actions">
        <button ref={cancel} type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="btn-danger confirm-go" onClick={onConfirm}>
          {confirm}
        </button>
      </div>
    </Dialog>
  );
}
