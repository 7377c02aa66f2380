export const LOG_LEVELS: readonly ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The settings the server's own process reads (process-settings.mjs), parsed. */
export interface ProcessSettings {
  PORT: number;
  /** the address to listen on; unset: every interface */
  HOSTNAME: string | undefined;
  UPLOAD_IDLE_TIMEOUT_SECONDS: number;
  /** addresses and CIDRs, comma separated (address-list.mjs reads it) */
  TRUSTED_PROXIES: string;
  SHUTDOWN_GRACE_SECONDS: number;
  LOG_LEVEL: LogLevel;
  SILO_HEAP_GROWTH_PERCENT: number;
  SILO_START_SKIP_BUILD: boolean;
}

/** One setting's value; throws `NAME: why` when its variable holds a bad one. */
export function processSetting<K extends keyof ProcessSettings>(name: K): ProcessSettings[K];
/** Every setting, and the problems (`NAME: why`) of those whose variable holds a bad value. */
export function readProcessSettings(): { values: Partial<ProcessSettings>; problems: string[] };
/** Every setting, or an exit with one line naming each bad one: for the scripts that start processes. */
export function processSettingsOrExit(): ProcessSettings;
