// Configuration from the environment, validated once. Every limit of docs/api.md, Limits, is here.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { type ProcessSettings, processSetting, readProcessSettings } from './process-settings.mjs';
import { DEFAULT_META_LIMITS } from './schemas/common';

// The settings the server's process reads before the app (PORT, HOSTNAME, UPLOAD_IDLE_TIMEOUT_SECONDS,
// TRUSTED_PROXIES, SHUTDOWN_GRACE_SECONDS, LOG_LEVEL, …) are parsed in process-settings.mjs, which
// scripts/serve.mjs imports too; config() holds them beside the rest.
export { LOG_LEVELS, processSetting, type ProcessSettings } from './process-settings.mjs';

const MiB = 1024 * 1024;
/** No inline file over this keeps its bytes in the database, whatever SMALL_BLOB_MAX_BYTES says. */
export const SMALL_BLOB_CEILING = MiB;
const int = (def: number) => z.coerce.number().int().positive().default(def);
const flag = (def: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(def ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1');

const schema = z
  .object({
    DATABASE_URL: z.string().url().optional(),
    // PostgreSQL: the role that owns the schema and runs the migrations; DATABASE_URL's role then
    // gets only what the server needs (lib/db/runtime-grants.ts).
    DATABASE_OWNER_URL: z.string().url().optional(),
    DATABASE_PREPARED_STATEMENTS: flag(true),
    // How long a request waits for a database connection before it answers 503 `busy` (lib/db/client.ts).
    DATABASE_WAIT_SECONDS: int(30),
    DATA_DIR: z.string().default('./data'),
    STORAGE_DIR: z.string().optional(),
    STORAGE: z.enum(['local', 's3']).default('local'),
    S3_ENDPOINT: z.string().url().optional(),
    S3_BUCKET: z.string().min(3).max(63).optional(),
    S3_REGION: z.string().min(1).optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_FORCE_PATH_STYLE: flag(false),
    // Blobs of retained versions written under S3 Object Lock, in at most this mode (lib/storage/s3/object-lock.ts);
    // the bucket must have been created with Object Lock enabled.
    S3_OBJECT_LOCK: z.enum(['governance', 'compliance']).optional(),
    PUBLIC_URL: z.string().url().optional(),
    ADMIN_API_KEY: z.string().min(16).optional(),
    // The credential of GET /utils/v1/metrics (lib/http/metrics-caller.ts); unset, the admin key reads them.
    METRICS_TOKEN: z.string().min(16).optional(),
    MAX_INLINE_BYTES: int(5 * MiB),
    MAX_FILE_BYTES: int(5 * 1024 * MiB),
    // Inline files up to this size keep their bytes in the database (lib/silo/files/small-blobs.ts); 0: never.
    SMALL_BLOB_MAX_BYTES: z.coerce
      .number()
      .int()
      .nonnegative()
      .max(SMALL_BLOB_CEILING)
      .default(128 * 1024),
    MAX_META_KEYS: int(DEFAULT_META_LIMITS.keys),
    MAX_META_KEY_LENGTH: int(DEFAULT_META_LIMITS.keyLength),
    MAX_META_VALUE_LENGTH: int(DEFAULT_META_LIMITS.valueLength),
    MAX_LIST_LIMIT: int(100),
    TOKEN_TTL_SECONDS: int(3600),
    UPLOAD_URL_TTL_SECONDS: int(24 * 3600),
    RATE_LIMIT_AUTHORIZE_PER_MINUTE: int(60),
    RATE_LIMIT_AUTHORIZE_FAILURES_PER_MINUTE: int(10),
    // Signs the event log's checkpoints and exports (lib/events/signing-key.ts): an Ed25519 private
    // key, PKCS#8 PEM (newlines may be written as \n). Unset: one generated into $DATA_DIR.
    AUDIT_SIGNING_KEY: z.string().min(1).optional(),
    AUDIT_CHECKPOINT_SECONDS: int(60),
    // An RFC 3161 time-stamp authority each checkpoint also gets a token from (lib/events/timestamp.ts),
    // and optionally its certificate or its issuer's (PEM, \n allowed) that tokens must chain to.
    AUDIT_TSA_URL: z.string().url().optional(),
    AUDIT_TSA_CERT: z.string().min(1).optional(),
    // Webhooks (lib/webhooks, SECURITY.md): http:// endpoints, and endpoints on loopback, private,
    // link-local or metadata addresses, are refused unless these say otherwise (tests, a closed network).
    WEBHOOK_ALLOW_HTTP: flag(false),
    WEBHOOK_ALLOW_PRIVATE: flag(false),
    // Signs console sessions; never stored in the database (lib/http/session-secret.ts).
    NEXTAUTH_SECRET: z.string().min(32).optional(),
  })
  .superRefine((c, ctx) => {
    if (c.DATABASE_OWNER_URL && !c.DATABASE_URL)
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_OWNER_URL'],
        message: 'only with DATABASE_URL (PostgreSQL; the embedded database has one role)',
      });
    if (c.STORAGE === 's3' && !c.S3_BUCKET) ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'required when STORAGE=s3' });
    if (c.S3_OBJECT_LOCK && c.STORAGE !== 's3')
      ctx.addIssue({ code: 'custom', path: ['S3_OBJECT_LOCK'], message: 'only with STORAGE=s3 (a local disk keeps blob files read-only)' });
    // One key without the other is a typo, not a wish for the SDK's credential chain.
    if (!c.S3_ACCESS_KEY_ID !== !c.S3_SECRET_ACCESS_KEY) {
      const missing = c.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID';
      ctx.addIssue({
        code: 'custom',
        path: [missing],
        message: 'set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (the AWS SDK credential chain)',
      });
    }
  });

/** The variables config() reads through its schema (lib/layers.test.ts: each has one reader). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(schema.shape);

export type Config = z.infer<typeof schema> & ProcessSettings & { maxJsonBytes: number; storageDir: string };

let cached: Config | undefined;

export function config(): Config {
  if (cached) return cached;
  const parsed = schema.safeParse(process.env);
  const own = readProcessSettings();
  const problems = [...(parsed.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? []), ...own.problems];
  if (!parsed.success || problems.length) throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  const c = parsed.data;
  cached = {
    ...c,
    ...(own.values as ProcessSettings),
    // base64 grows data by 4/3; the rest of a file request is small.
    maxJsonBytes: Math.ceil((c.MAX_INLINE_BYTES * 4) / 3) + 64 * 1024,
    storageDir: c.STORAGE_DIR ?? defaultStorageDir(c),
  };
  return cached;
}

/**
 * Where file bytes live when STORAGE_DIR is not set: the embedded database's `$DATA_DIR/blobs`, or
 * a folder of each PostgreSQL database's own (`$DATA_DIR/blobs-pg-<name>-<hash of host:port/name>`),
 * so two databases never share one by default. (The store also records its database and refuses
 * another: see lib/silo/store-binding.ts.)
 */
export function defaultStorageDir(c: { DATA_DIR: string; DATABASE_URL?: string }): string {
  if (!c.DATABASE_URL) return `${c.DATA_DIR}/blobs`;
  const u = new URL(c.DATABASE_URL);
  // libpq's defaults: the database is named after the user; the host may come as ?host= (a socket).
  const name = decodeURIComponent(u.pathname.replace(/^\//, '')) || decodeURIComponent(u.username) || 'postgres';
  const host = u.searchParams.get('host') ?? (u.hostname || 'localhost');
  const where = `${host}:${u.port || '5432'}/${name}`;
  const tag = createHash('sha256').update(where).digest('hex').slice(0, 8);
  return `${c.DATA_DIR}/blobs-pg-${name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40)}-${tag}`;
}

/** For tests that change the environment. */
export function resetConfig() {
  cached = undefined;
}

/**
 * Switches of the process that benchmarks and tests flip, read apart from the validated
 * configuration. Nothing else in lib/ but process-settings.mjs reads process.env (lib/layers.test.ts).
 */
export const processSettings = {
  /** The logger's level: the log exists before config() may throw. */
  logLevel: () => processSetting('LOG_LEVEL'),
  /** SILO_COUNT_QUERIES=1: each request logs how many statements it made (benchmarks). */
  countQueries: () => process.env.SILO_COUNT_QUERIES === '1',
  /** SILO_READ_CACHE=off: no read cache, to measure what it saves (bench/small-requests.ts). */
  readCacheOff: () => process.env.SILO_READ_CACHE === 'off',
  /** SILO_CHECK_CACHE_READS=1 (tests): a cached read's statement may read only the tables it declared (lib/db/declared-reads.ts). */
  checkCacheReads: () => process.env.SILO_CHECK_CACHE_READS === '1',
  /** The AWS SDK's own region variable, when S3_REGION is unset. */
  awsRegion: () => process.env.AWS_REGION,
};
