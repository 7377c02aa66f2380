'use client';
// Console users (admins only): /admin/v1/users…
import { useQuery } from '@tanstack/react-query';
import { api } from '../api';
import type { Page, User } from '../../schemas/records';
import { useApiMutation, type After } from './mutation';

const BASE = '/admin/v1/users';
export const userKeys = { all: ['users'] as const };

export const useUsers = (enabled = true) =>
  useQuery({ queryKey: userKeys.all, queryFn: async () => (await api<Page<User>>(BASE)).list, enabled });

export interface UserFields {
  email: string;
  name: string;
  /** empty keeps the current one when editing */
  password: string;
  admin: boolean;
  owner_ids: string[];
}

/** Creates a user (no `id`) or changes one; the email of an existing user stays. */
export const useSaveUser = (after?: After<User, { id?: string; fields: UserFields }>) =>
  useApiMutation(
    ({ id, fields: v }: { id?: string; fields: UserFields }) =>
      id
        ? api<User>(`${BASE}/${id}`, {
            method: 'PATCH',
            body: { name: v.name, admin: v.admin, owner_ids: v.owner_ids, ...(v.password ? { password: v.password } : {}) },
          })
        : api<User>(BASE, { method: 'POST', body: v }),
    () => [userKeys.all],
    after,
  );
