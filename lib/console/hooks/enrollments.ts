'use client';
// Enrollments: the admin list and its disable switch, and the access service's authorize call
// made as an application would make it.
import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../api';
import type { Enrollment, Page } from '../../schemas/records';
import { useApiMutation, type After } from './mutation';
import { nextCursor, pageQuery } from './pages';

const BASE = '/admin/v1/enrollments';
export const enrollmentKeys = { all: ['enrollments'] as const };

export function useEnrollments() {
  return useInfiniteQuery({
    queryKey: enrollmentKeys.all,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => api<Page<Enrollment>>(`${BASE}?${pageQuery(25, pageParam)}`),
    getNextPageParam: nextCursor,
  });
}

/** Disables an enabled enrollment (its tokens stop working) or enables a disabled one. */
export const useToggleEnrollment = (after?: After<Enrollment, Enrollment>) =>
  useApiMutation(
    (e: Enrollment) => api<Enrollment>(`${BASE}/${e.id}`, { method: 'PATCH', body: { disabled: !e.disabled } }),
    () => [enrollmentKeys.all],
    after,
  );

export interface Authorization {
  client_id: string;
  client_secret: string;
  /** the enrollment by workspace (created on first use) or by its id */
  owner_id?: string;
  id?: string;
  sandbox?: boolean;
  /** sent as X-Owner-Key; untrusted applications need it */
  owner_key?: string;
}

export const useAuthorize = (after?: After<Enrollment, Authorization>) =>
  useApiMutation(
    ({ owner_key, ...body }: Authorization) =>
      api<Enrollment>('/access/v1/enrollment/authorize', {
        method: 'POST',
        headers: owner_key ? { 'X-Owner-Key': owner_key } : undefined,
        body,
      }),
    () => [enrollmentKeys.all],
    after,
  );
