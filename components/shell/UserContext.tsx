'use client';
// The signed-in user, read once by the console layout on the server.
import { createContext, useContext } from 'react';
import type { User } from '@/lib/schemas/records';

export const UserContext = createContext<User | null>(null);

export function useMe(): User {
  const me = useContext(UserContext);
  if (!me) throw new Error('useMe outside the console layout');
  return me;
}
