// Payloads of the access service (docs/api.md, Credentials and Authorize) and of /admin/v1.
import { z } from 'zod';
import { listOf, listQuery, plain, recordId, text, timestamp, uuid, built } from './common';

export const AuthorizeInput = z
  .object({
    client_id: plain(200).optional(),
    client_secret: z.string().max(500).optional(),
    id: uuid.optional().meta({ description: 'Enrollment to authorize; an alternative to owner_id' }),
    owner_id: uuid.optional().meta({
      description: 'Owner of the enrollment; needs a trusted app, the owner key, or an enabled enrollment made by an administrator',
    }),
    sandbox: z.boolean().optional().meta({ description: 'Without an owner key: the sandbox enrollment instead of live' }),
  })
  .meta({ id: 'AuthorizeEnrollment' });
export type AuthorizeInput = z.infer<typeof AuthorizeInput>;

const enrollmentFields = {
  id: recordId,
  app_id: recordId,
  owner_id: recordId,
  created_at: timestamp,
  updated_at: timestamp,
  data: z.unknown().optional().meta({ description: 'What the application stored with the enrollment' }),
  disabled: z.boolean(),
  sandbox: z.boolean(),
};

export const EnrollmentRecord = z.object(enrollmentFields).meta({ id: 'Enrollment' });
export type EnrollmentRecord = z.infer<typeof EnrollmentRecord>;
export const AuthorizedEnrollment = z
  .object({
    ...enrollmentFields,
    token: z.string().meta({ description: 'Send as Authorization: Bearer <token>' }),
    token_expires: z.number().int().min(0).meta({ description: 'Unix seconds', example: 1795867200 }),
  })
  .meta({ id: 'AuthorizedEnrollment' });
export type AuthorizedEnrollment = z.infer<typeof AuthorizedEnrollment>;

export const EnrollmentList = listOf(EnrollmentRecord, 'EnrollmentList');
export const enrollmentListQuery = built((maxLimit: number) =>
  listQuery(maxLimit).extend({
    owner_id: uuid.optional().meta({ description: "Only this owner's enrollments" }),
    app_id: uuid.optional().meta({ description: "Only this app's enrollments" }),
  }),
);
export const EnrollmentUpdate = z.object({ disabled: z.boolean() }).meta({ id: 'EnrollmentUpdate' });
export const EnrollmentInput = z
  .object({ app_id: uuid, owner_id: uuid, sandbox: z.boolean().default(false) })
  .meta({ id: 'EnrollmentInput', description: 'Enroll an application in a workspace, in one environment' });
export type EnrollmentInput = z.infer<typeof EnrollmentInput>;

export const OwnerInput = z.object({ name: text(255, 1) }).meta({ id: 'OwnerInput' });
export const KeyInput = z.object({ sandbox: z.boolean().default(false) }).meta({ id: 'KeyInput' });
export const AppInput = z.object({ name: text(255, 1), trusted: z.boolean().default(false) }).meta({ id: 'AppInput' });
export const OwnerUpdate = z.object({ name: text(255, 1) }).meta({ id: 'OwnerUpdate' });
export const AppUpdate = z
  .object({ name: text(255, 1).optional(), trusted: z.boolean().optional() })
  .refine((a) => a.name !== undefined || a.trusted !== undefined, { message: 'send name or trusted', path: ['name'] })
  .meta({ id: 'AppUpdate' });
export type AppUpdate = z.infer<typeof AppUpdate>;

export const NewApiKey = z
  .object({ id: recordId, key: z.string(), sandbox: z.boolean(), created_at: timestamp })
  .meta({ id: 'NewApiKey', description: 'The key is shown in this response only' });
export type NewApiKey = z.infer<typeof NewApiKey>;
export const ApiKeyRecord = z
  .object({
    id: recordId,
    prefix: z.string().meta({ description: 'The first characters of the key, to recognise it' }),
    sandbox: z.boolean(),
    created_at: timestamp,
  })
  .meta({ id: 'ApiKey' });
export type ApiKeyRecord = z.infer<typeof ApiKeyRecord>;
const ownerName = z.string().meta({ example: 'Acme Ltd' });
const count = z.number().int().min(0);
export const OwnerUsage = z
  .object({
    entries: count.meta({ description: 'Entries, both environments', example: 42 }),
    files: count.meta({ description: 'Stored file versions (every version, placeholders not counted)', example: 57 }),
    bytes: count.meta({ description: 'Sum of their sizes; identical bytes are kept once, so the disk may hold less', example: 12345678 }),
  })
  .meta({ id: 'OwnerUsage' });
export type OwnerUsage = z.infer<typeof OwnerUsage>;
export const OwnerRecord = z
  .object({
    id: recordId,
    name: ownerName,
    created_at: timestamp,
    usage: OwnerUsage.optional().meta({ description: 'Storage used; on GET (list and one)' }),
    api_keys: z.array(ApiKeyRecord).optional().meta({ description: 'Unrevoked keys; on GET of one owner' }),
  })
  .meta({ id: 'Owner' });
export type OwnerRecord = z.infer<typeof OwnerRecord>;
export const NewOwner = z
  .object({ id: recordId, name: ownerName, created_at: timestamp, api_keys: z.array(NewApiKey) })
  .meta({ id: 'NewOwner' });
export type NewOwner = z.infer<typeof NewOwner>;
export const OwnerList = listOf(OwnerRecord, 'OwnerList');
export const AppRecord = z
  .object({
    id: recordId,
    name: z.string().meta({ example: 'Billing app' }),
    client_id: z.string(),
    trusted: z.boolean(),
    created_at: timestamp,
  })
  .meta({ id: 'App' });
export type AppRecord = z.infer<typeof AppRecord>;
export const NewAppSecret = AppRecord.extend({ client_secret: z.string().meta({ description: 'Shown in this response only' }) }).meta({
  id: 'AppWithSecret',
});
export type NewAppSecret = z.infer<typeof NewAppSecret>;
export const AppList = listOf(AppRecord, 'AppList');
