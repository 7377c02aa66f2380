// Payloads of the console's own admin endpoints: setup, users and their workspaces, "me".
import { z } from 'zod';
import { NOT_STORABLE, listOf, recordId, storable, text, timestamp, uuid } from './common';

// No whitespace or control characters either side of one @ (and, like every string, no NUL).
const email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .regex(/^[^\s@\u0000-\u001f\u007f]+@[^\s@\u0000-\u001f\u007f]+$/, 'must be an email address')
  .refine(storable, NOT_STORABLE);
const password = z.string().min(8, 'must be at least 8 characters').max(200, 'must be at most 200 characters');

export const SetupInput = z
  .object({ token: z.string().min(1).max(200), email, name: text(255).default(''), password })
  .meta({ id: 'SetupInput' });

export const UserInput = z
  .object({
    email,
    name: text(255).default(''),
    password,
    admin: z.boolean().default(false),
    owner_ids: z.array(uuid).max(1000).default([]),
  })
  .meta({ id: 'UserInput' });
export type UserInput = z.infer<typeof UserInput>;

export const UserUpdate = z
  .object({
    name: text(255).optional(),
    password: password.optional(),
    admin: z.boolean().optional(),
    owner_ids: z.array(uuid).max(1000).optional(),
  })
  .meta({ id: 'UserUpdate' });
export type UserUpdate = z.infer<typeof UserUpdate>;

export const UserRecord = z
  .object({
    id: recordId,
    email: z.string().meta({ example: 'ada@example.com' }),
    name: z.string().meta({ example: 'Ada Lovelace' }),
    admin: z.boolean(),
    owner_ids: z.array(recordId).meta({ description: 'The workspaces the user belongs to' }),
    created_at: timestamp,
  })
  .meta({ id: 'User' });
export type UserRecord = z.infer<typeof UserRecord>;

/** Every user at once: limit is the number of users. */
export const UserList = listOf(UserRecord, 'UserList');
