'use client';
// Enrollments: the admin list, its disable switch, and enrolling an application in a workspace.
import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../api';
import type { Enrollment, Page } from '../../schemas/records';
import { appKeys } from './apps';
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

export interface NewEnrollment {
  app_id: string;
  owner_id: string;
  sandbox: boolean;
}

/** An administrator enrolls an application in a workspace: the app then needs no owner key. */
export const useEnroll = (after?: After<Enrollment, NewEnrollment>) =>
  useApiMutation(
    (body: NewEnrollment) => api<Enrollment>(BASE, { method: 'POST', body }),
    () => [enrollmentKeys.all, appKeys.all],
    after,
  );
