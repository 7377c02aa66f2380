// Payloads of the access service (seed §2.1–2.2, contract §2) and of /admin/v1.
import { z } from 'zod';
import { listOf, listQuery, plain, text, timestamp, uuid } from './common';

export const AuthorizeInput = z
  .object({
    client_id: plain(200).optional(),
    client_secret: z.string().max(500).optional(),
    id: uuid.optional().meta({ description: 'Enrollment to authorize; an alternative to owner_id' }),
    owner_id: uuid.optional().meta({ description: 'Owner of the enrollment; needs a trusted app or the owner key' }),
    sandbox: z.boolean().optional().meta({ description: 'Trusted apps only: the sandbox enrollment instead of live' }),
  })
  .meta({ id: 'AuthorizeEnrollment' });
export type AuthorizeInput = z.infer<typeof AuthorizeInput>;

const enrollmentFields = {
  id: z.string().meta({ format: 'uuid' }),
  app_id: z.string().meta({ format: 'uuid' }),
  owner_id: z.string().meta({ format: 'uuid' }),
  created_at: timestamp,
  updated_at: timestamp,
  data: z.unknown().optional(),
  disabled: z.boolean(),
  sandbox: z.boolean(),
};

export const EnrollmentRecord = z.object(enrollmentFields).meta({ id: 'Enrollment' });
export const AuthorizedEnrollment = z
  .object({
    ...enrollmentFields,
    token: z.string().meta({ description: 'Send as Authorization: Bearer <token>' }),
    token_expires: z.number().int().meta({ description: 'Unix seconds' }),
  })
  .meta({ id: 'AuthorizedEnrollment' });

export const EnrollmentList = listOf(EnrollmentRecord, 'EnrollmentList');
export const enrollmentListQuery = (maxLimit: number) =>
  listQuery(maxLimit).extend({ owner_id: uuid.optional(), app_id: uuid.optional() });
export const EnrollmentUpdate = z.object({ disabled: z.boolean() }).meta({ id: 'EnrollmentUpdate' });

export const OwnerInput = z.object({ name: text(255, 1) }).meta({ id: 'OwnerInput' });
export const KeyInput = z.object({ sandbox: z.boolean().default(false) }).meta({ id: 'KeyInput' });
export const AppInput = z.object({ name: text(255, 1), trusted: z.boolean().default(false) }).meta({ id: 'AppInput' });

export const NewApiKey = z
  .object({ id: z.string(), key: z.string(), sandbox: z.boolean(), created_at: timestamp })
  .meta({ id: 'NewApiKey', description: 'The key is shown in this response only' });
export const ApiKeyRecord = z
  .object({ id: z.string(), prefix: z.string(), sandbox: z.boolean(), created_at: timestamp })
  .meta({ id: 'ApiKey' });
export const OwnerRecord = z
  .object({ id: z.string(), name: z.string(), created_at: timestamp, api_keys: z.array(ApiKeyRecord).optional() })
  .meta({ id: 'Owner' });
export const NewOwner = z
  .object({ id: z.string(), name: z.string(), created_at: timestamp, api_keys: z.array(NewApiKey) })
  .meta({ id: 'NewOwner' });
export const OwnerList = listOf(OwnerRecord, 'OwnerList');
export const AppRecord = z
  .object({ id: z.string(), name: z.string(), client_id: z.string(), trusted: z.boolean(), created_at: timestamp })
  .meta({ id: 'App' });
export const NewAppSecret = AppRecord.extend({ client_secret: z.string() }).meta({ id: 'AppWithSecret' });
export const AppList = listOf(AppRecord, 'AppList');
