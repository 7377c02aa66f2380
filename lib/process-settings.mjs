// The settings the server's own process reads, each variable read and parsed here and nowhere else:
// scripts/serve.mjs, start.mjs and heap-growth.mjs run as plain node before the app exists (so this
// is JavaScript), lib/log.ts needs its level before config() may throw. lib/config.ts re-exports
// them and reports a bad one with its own (lib/layers.test.ts: one reader per variable).
import { z } from 'zod';
import { parseAddressList } from './address-list.mjs';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** An empty variable is an unset one (a shell's `PORT= npm start`). */
const unlessEmpty = (schema) => z.preprocess((v) => (v === '' ? undefined : v), schema);

/** Each setting: how its variable is read, and its parser (a zod schema: default and rule). */
const SETTINGS = {
  PORT: [() => process.env.PORT, unlessEmpty(z.coerce.number().int().min(0).max(65535).default(3000))],
  /** the address to listen on; unset: every interface */
  HOSTNAME: [() => process.env.HOSTNAME, unlessEmpty(z.string().optional())],
  UPLOAD_IDLE_TIMEOUT_SECONDS: [() => process.env.UPLOAD_IDLE_TIMEOUT_SECONDS, z.coerce.number().int().positive().default(60)],
  // Peers whose X-Forwarded-* headers count (addresses and CIDRs, comma separated).
  TRUSTED_PROXIES: [
    () => process.env.TRUSTED_PROXIES,
    z
      .string()
      .default('')
      .superRefine((v, ctx) => {
        try {
          parseAddressList(v);
        } catch (e) {
          ctx.addIssue({ code: 'custom', message: e.message });
        }
      }),
  ],
  SHUTDOWN_GRACE_SECONDS: [() => process.env.SHUTDOWN_GRACE_SECONDS, z.coerce.number().int().nonnegative().default(25)],
  LOG_LEVEL: [() => process.env.LOG_LEVEL, z.enum(LOG_LEVELS).default('info')],
  // How far V8 lets the heap grow past what its last full collection kept (scripts/heap-growth.mjs).
  SILO_HEAP_GROWTH_PERCENT: [
    () => process.env.SILO_HEAP_GROWTH_PERCENT,
    unlessEmpty(
      z
        .string()
        .regex(/^\d+$/, "must be an integer from 0 to 1000 (0: V8's own)")
        .transform(Number)
        .refine((n) => n <= 1000, "must be an integer from 0 to 1000 (0: V8's own)")
        .default(30),
    ),
  ],
  // `npm start` serves the build that is there (the tests that start servers through npm).
  SILO_START_SKIP_BUILD: [
    () => process.env.SILO_START_SKIP_BUILD,
    z
      .string()
      .optional()
      .transform((v) => v === '1'),
  ],
};

/** One setting's value; throws `NAME: why` when its variable holds a bad one. */
export function processSetting(name) {
  const [read, schema] = SETTINGS[name];
  const parsed = schema.safeParse(read());
  if (!parsed.success) throw new Error(`${name}: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  return parsed.data;
}

/** Every setting, and the problems (`NAME: why`) of those whose variable holds a bad value. */
export function readProcessSettings() {
  const values = {};
  const problems = [];
  for (const name of Object.keys(SETTINGS)) {
    try {
      values[name] = processSetting(name);
    } catch (e) {
      problems.push(e.message);
    }
  }
  return { values, problems };
}

/** Every setting, or an exit with one line naming each bad one: for the scripts that start processes. */
export function processSettingsOrExit() {
  const { values, problems } = readProcessSettings();
  if (problems.length === 0) return values;
  console.error(`Silo cannot start: Invalid configuration: ${problems.join('; ')}`);
  process.exit(1);
}
