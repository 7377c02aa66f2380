'use client';
// Client-side providers of every page: TanStack Query and toasts.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ApiFailure } from '@/lib/console/api';
import { ToastProvider } from './ui/Toaster';

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            staleTime: 10_000,
            // 4xx answers will not change on their own; only retry what may be transient.
            retry: (count, err) => count < 2 && !(err instanceof ApiFailure && err.status >= 400 && err.status < 500),
          },
        },
      }),
  );
  return (
    <QueryClientProvider client={client}>
      <ToastProvider>{children}</ToastProvider>
    </QueryClientProvider>
  );
}
