'use client';
// Applications and their client secrets: /admin/v1/apps…
import { useQuery } from '@tanstack/react-query';
import { api } from '../api';
import type { App } from '../../schemas/records';
import { useApiMutation, type After } from './mutation';
import { readAll } from './pages';

const BASE = '/admin/v1/apps';
export const appKeys = { all: ['apps'] as const };

export const useApps = () => useQuery({ queryKey: appKeys.all, queryFn: () => readAll<App>(BASE) });

export interface NewApp {
  name: string;
  trusted: boolean;
}

/** The answer carries the client secret, shown once. */
export const useCreateApp = (after?: After<App, NewApp>) =>
  useApiMutation(
    (app: NewApp) => api<App>(BASE, { method: 'POST', body: app }),
    () => [appKeys.all],
    after,
  );

/** The old secret stops working at once; the answer carries the new one. */
export const useRotateSecret = (after?: After<App, string>) =>
  useApiMutation(
    (id: string) => api<App>(`${BASE}/${id}/secret`, { method: 'POST' }),
    () => [],
    after,
  );

/** Admins rename an application or change its trust; its credentials stay. */
export const useUpdateApp = (id: string, after?: After<App, Partial<NewApp>>) =>
  useApiMutation(
    (change: Partial<NewApp>) => api<App>(`${BASE}/${id}`, { method: 'PATCH', body: change }),
    () => [appKeys.all],
    after,
  );
