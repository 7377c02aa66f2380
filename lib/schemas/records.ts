// The API's records as TypeScript types, inferred from the record schemas the OpenAPI document
// shows. The console reads them under these names; the presenters return the schema types.
import type { z } from 'zod';
import type { ApiKeyRecord, AppRecord, AuthorizedEnrollment, EnrollmentRecord, NewApiKey, NewAppSecret, OwnerRecord } from './access';
import type { AuditorKeyRecord, NewAuditorKey } from './auditor-keys';
import type { ErrorSchema, listOf } from './common';
import type { EntryRecord, FolderRecord } from './entries';
import type { ChainVerdict as ChainVerdictSchema, EventRecord as EventRecordSchema } from './events';
import type { FileLinkRecord, FileRecord as FileRecordType, PreviousVersion as PreviousVersionType } from './files';
import type { UserRecord } from './users';
import type { WebhookDeliveryRecord, WebhookRecord, WebhookWithSecret } from './webhooks';

/**
 * A record as listed, or as the one answer that adds a secret to it (shown once): a reader of
 * either sees every field, those of the other shape optional.
 */
type Either<A, B> = (A & Partial<Omit<B, keyof A>>) | (B & Partial<Omit<A, keyof B>>);

/** One page of a list (`list`, `limit`, `cursor`, `next_cursor`). */
export type Page<T> = Omit<z.infer<ReturnType<typeof listOf<z.ZodUnknown>>>, 'list'> & { list: T[] };
export type ErrorBody = z.infer<typeof ErrorSchema>;

/** A key as listed (prefix) or just created (key). */
export type ApiKey = Either<ApiKeyRecord, NewApiKey>;
/** A workspace; its keys as listed, or with their values right after it was created. */
export type Owner = Omit<OwnerRecord, 'api_keys'> & { api_keys?: ApiKey[] };
export type App = Either<AppRecord, NewAppSecret>;
export type Enrollment = Either<EnrollmentRecord, AuthorizedEnrollment>;
export type PreviousVersion = PreviousVersionType;
export type FileRecord = FileRecordType;
export type FileLink = z.infer<typeof FileLinkRecord>;
export type Entry = EntryRecord;
export type Folder = FolderRecord;
export type User = UserRecord;
/** One record of the event log, and the verdict of its chain's verification. */
export type EventRecord = z.infer<typeof EventRecordSchema>;
export type ChainVerdict = z.infer<typeof ChainVerdictSchema>;

/** An auditor's key as listed, or as made (with its `key`, shown once). */
export type AuditorKey = Either<AuditorKeyRecord, NewAuditorKey>;
/** A webhook endpoint as listed, or with its secret right after it was made or rotated. */
export type Webhook = Either<z.infer<typeof WebhookRecord>, z.infer<typeof WebhookWithSecret>>;
export type WebhookDelivery = z.infer<typeof WebhookDeliveryRecord>;
