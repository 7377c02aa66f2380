'use client';
// Toasts: short messages in a polite live region; errors stay until dismissed.
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

type Tone = 'info' | 'success' | 'error';
interface Toast {
  id: number;
  tone: Tone;
  text: string;
}
interface ToastApi {
  show(text: string, tone?: Tone): void;
  error(err: unknown): void;
}

const ToastContext = createContext<ToastApi>({ show: () => {}, error: () => {} });
export const useToast = () => useContext(ToastContext);

let nextId = 1;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const dismiss = useCallback((id: number) => setToasts((t) => t.filter((x) => x.id !== id)), []);
  const show = useCallback(
    (text: string, tone: Tone = 'info') => {
      const id = nextId++;
      setToasts((t) => [...t.slice(-4), { id, tone, text }]);
      if (tone !== 'error') setTimeout(() => dismiss(id), 4000);
    },
    [dismiss],
  );
  const api = useMemo<ToastApi>(() => ({ show, error: (err) => show(err instanceof Error ? err.message : String(err), 'error') }), [show]);
  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.map((t) => (
          <div key={t.id} className={`toast toast-${t.tone}`} role={t.tone === 'error' ? 'alert' : undefined}>
            <span>{t.text}</span>
            <button type="button" className="btn-icon" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}
