// Configuration from the environment, validated once. Every limit of contract §6 is here.
import { z } from 'zod';
import { parseAddressList } from './address-list';

const MiB = 1024 * 1024;
const int = (def: number) => z.coerce.number().int().positive().default(def);

const schema = z.object({
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
  STORAGE_DIR: z.string().optional(),
  PUBLIC_URL: z.string().url().optional(),
  ADMIN_API_KEY: z.string().min(16).optional(),
  MAX_INLINE_BYTES: int(5 * MiB),
  MAX_FILE_BYTES: int(5 * 1024 * MiB),
  MAX_META_KEYS: int(50),
  MAX_META_KEY_LENGTH: int(64),
  MAX_META_VALUE_LENGTH: int(1024),
  MAX_LIST_LIMIT: int(100),
  TOKEN_TTL_SECONDS: int(3600),
  UPLOAD_URL_TTL_SECONDS: int(24 * 3600),
  RATE_LIMIT_AUTHORIZE_PER_MINUTE: int(60),
  RATE_LIMIT_AUTHORIZE_FAILURES_PER_MINUTE: int(10),
  // Peers whose X-Forwarded-For names the client (addresses and CIDRs, comma separated).
  TRUSTED_PROXIES: z
    .string()
    .default('')
    .superRefine((v, ctx) => {
      try {
        parseAddressList(v);
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: (e as Error).message });
      }
    }),
  // Signs console sessions; never stored in the database (lib/http/session-secret.ts).
  NEXTAUTH_SECRET: z.string().min(32).optional(),
});

export type Config = z.infer<typeof schema> & { maxJsonBytes: number; storageDir: string };

let cached: Config | undefined;

export function config(): Config {
  if (cached) return cached;
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${detail}`);
  }
  const c = parsed.data;
  cached = {
    ...c,
    // base64 grows data by 4/3; the rest of a file request is small.
    maxJsonBytes: Math.ceil((c.MAX_INLINE_BYTES * 4) / 3) + 64 * 1024,
    storageDir: c.STORAGE_DIR ?? `${c.DATA_DIR}/blobs`,
  };
  return cached;
}

/** For tests that change the environment. */
export function resetConfig() {
  cached = undefined;
}
