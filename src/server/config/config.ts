import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { isIsoDate } from '../../shared/dates/calendar';
import { DEFAULT_PASSWORD_HASH_COST, MAX_PASSWORD_HASH_COST, MIN_PASSWORD_HASH_COST } from '../modules/auth/crypto';

/**
 * The one place that reads process.env. Every setting has a default so the app
 * starts with no configuration at all; a bad value stops startup with a list of
 * what is wrong.
 */
const booleanText = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Durations such as `900` (seconds), `15m`, `12h`, `30d`. */
const DURATION = /^(\d+)\s*([smhd]?)$/;
const DURATION_UNIT_SECONDS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600, d: 86400 };
const durationText = z
  .string()
  .transform((v, ctx) => {
    const [, amount, unit = ''] = DURATION.exec(v) ?? [];
    const unitSeconds = DURATION_UNIT_SECONDS[unit];
    if (amount === undefined || unitSeconds === undefined) {
      ctx.addIssue({ code: 'custom', message: 'expected seconds or a number followed by s, m, h or d' });
      return z.NEVER;
    }
    return Number(amount) * unitSeconds;
  })
  .refine((seconds) => seconds > 0, 'must be longer than 0 seconds');

/**
 * TRUST_PROXY: `false` (default: X-Forwarded-* ignored), `true` (one reverse proxy in front), a
 * number of proxy hops, or a comma-separated list of proxy addresses / CIDR ranges (also
 * `loopback`, `linklocal`, `uniquelocal`). The client address is the right-most
 * X-Forwarded-For entry that is not a trusted proxy.
 */
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const trustProxyText = z.string().transform((value, ctx): TrustProxy => {
  const text = value.trim().toLowerCase();
  if (['false', '0', 'no', 'off'].includes(text)) return false;
  if (['true', 'yes', 'on'].includes(text)) return 1;
  if (/^\d+$/.test(text)) return Math.min(Number(text), 32);
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const bad = entries.filter((entry) => !PROXY_NAMES.has(entry) && !isAddressOrRange(entry));
  if (entries.length === 0 || bad.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `expected false, true, a number of proxy hops or a comma-separated list of proxy addresses (not ${bad.join(', ') || 'empty'})`,
    });
    return z.NEVER;
  }
  return entries;
});

function isAddressOrRange(entry: string): boolean {
  const [address = '', bits, ...rest] = entry.split('/');
  if (rest.length > 0 || isIP(address) === 0) return false;
  if (bits === undefined) return true;
  const max = isIP(address) === 4 ? 32 : 128;
  return /^\d+$/.test(bits) && Number(bits) <= max;
}

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_FILE: z.string().min(1).optional(),
  DATABASE_URL: z
    .string()
    .min(1)
    .refine((v) => /^postgres(ql)?:\/\/[^/]+\/[^/?]+/.test(v), 'expected postgres://user:password@host:port/database')
    .optional(),
  ALLOW_RLS_BYPASS: booleanText.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ALLOW_REGISTRATION: booleanText.default(true),
  ACCESS_TOKEN_TTL: durationText.default(15 * 60),
  REFRESH_TOKEN_TTL: durationText.default(30 * 86400),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  PASSWORD_HASH_COST: z.coerce
    .number()
    .int('must be a whole number')
    .min(MIN_PASSWORD_HASH_COST, `must be from ${MIN_PASSWORD_HASH_COST} to ${MAX_PASSWORD_HASH_COST}`)
    .max(MAX_PASSWORD_HASH_COST, `must be from ${MIN_PASSWORD_HASH_COST} to ${MAX_PASSWORD_HASH_COST}`)
    .default(DEFAULT_PASSWORD_HASH_COST),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(10),
  LOGIN_ADDRESS_MAX_FAILURES: z.coerce.number().int().min(1).default(50),
  LOGIN_WINDOW: durationText.default(15 * 60),
  REGISTRATIONS_PER_ADDRESS: z.coerce.number().int().min(1).default(10),
  API_TOKEN_RATE_LIMIT: z.coerce.number().int().min(1).default(600),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  UPLOAD_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(10 * 1024 * 1024),
  TRUST_PROXY: trustProxyText.default(false),
  CLIENT_DIR: z.string().min(1).optional(),
  RESTORE_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(100 * 1024 * 1024),
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_INTERVAL: durationText.default(24 * 3600),
  BACKUP_KEEP: z.coerce.number().int().min(1, 'must be at least 1').default(7),
  HISTORY_RETENTION_DAYS: z.coerce.number().int().min(1, 'must be at least 1').max(3650).default(90),
  TRASH_RETENTION_DAYS: z.coerce.number().int().min(1, 'must be at least 1').max(3650).default(30),
  CLOCK_TODAY: z
    .string()
    .refine((v) => isIsoDate(v), 'must be a real date in YYYY-MM-DD format')
    .optional(),
});

/** Every variable the server reads (.env.example and the README's configuration table list the same). */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape);

/** false, a number of trusted proxy hops, or the trusted proxies' addresses. */
export type TrustProxy = false | number | string[];

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  /** The SQLite file (used when databaseUrl is unset; backups and the health probe read it). */
  databaseFile: string;
  /** postgres://user:password@host:port/db: the app runs on PostgreSQL instead of the SQLite file. */
  databaseUrl?: string;
  /**
   * Start on PostgreSQL even when the role is a superuser or has BYPASSRLS (row-level security then binds
   * nothing): warned at every start and shown by /api/health.
   */
  allowRlsBypass: boolean;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  allowRegistration: boolean;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** When unset, a secret is generated on first start and kept in the data directory. */
  jwtSecret?: string;
  /**
   * log2 of scrypt's N for new password hashes (10..20, default 14 = N 16384). Higher makes stolen hashes slower to
   * guess; under 14 is for test suites. Stored hashes keep their own N and still verify.
   */
  passwordHashCost: number;
  /** Failed logins per username and client address within the window. */
  loginMaxFailures: number;
  /** Failed logins and bearer tokens per client address within the window, whatever the usernames. */
  loginAddressMaxFailures: number;
  loginWindowSeconds: number;
  /** Accounts one client address may try to create per hour (each attempt counts). */
  registrationsPerAddress: number;
  /** Requests per API token per minute. */
  apiTokenRateLimit: number;
  bodyLimitBytes: number;
  uploadLimitBytes: number;
  trustProxy: TrustProxy;
  /** The built React app; `dist/client` next to the server bundle by default. */
  clientDir: string;
  /** Largest "all my data" document POST /api/import takes. */
  restoreLimitBytes: number;
  /** Scheduled backups: the folder (none when unset), how often (seconds) and how many to keep. */
  backupDir?: string;
  backupIntervalSeconds: number;
  backupKeep: number;
  /** Days the history keeps an entry, and the trash a deleted transaction, before deleting them for good. */
  retention: { historyDays: number; trashDays: number };
  /** The date the server takes as today, when pinned (tests, demonstrations); the real local date otherwise. */
  clockToday?: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads `.env` from the working directory when there is one (see .env.example). Variables
 * already set in the environment win over the file.
 */
export function loadDotEnv(file = '.env'): boolean {
  if (!existsSync(file)) return false;
  process.loadEnvFile(file);
  return true;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  // Empty strings count as unset, so `PORT=` in a .env file falls back to the default.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseFile: e.DATABASE_FILE ? path.resolve(e.DATABASE_FILE) : path.join(dataDir, 'budget-tracker.sqlite'),
    databaseUrl: e.DATABASE_URL,
    allowRlsBypass: e.ALLOW_RLS_BYPASS,
    logLevel: e.LOG_LEVEL,
    allowRegistration: e.ALLOW_REGISTRATION,
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL,
    refreshTokenTtlSeconds: e.REFRESH_TOKEN_TTL,
    jwtSecret: e.JWT_SECRET,
    passwordHashCost: e.PASSWORD_HASH_COST,
    loginMaxFailures: e.LOGIN_MAX_FAILURES,
    loginAddressMaxFailures: e.LOGIN_ADDRESS_MAX_FAILURES,
    loginWindowSeconds: e.LOGIN_WINDOW,
    registrationsPerAddress: e.REGISTRATIONS_PER_ADDRESS,
    apiTokenRateLimit: e.API_TOKEN_RATE_LIMIT,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    uploadLimitBytes: e.UPLOAD_LIMIT_BYTES,
    trustProxy: e.TRUST_PROXY === 0 ? false : e.TRUST_PROXY,
    clientDir: e.CLIENT_DIR ? path.resolve(e.CLIENT_DIR) : path.resolve('dist/client'),
    restoreLimitBytes: e.RESTORE_LIMIT_BYTES,
    backupDir: e.BACKUP_DIR ? path.resolve(e.BACKUP_DIR) : undefined,
    backupIntervalSeconds: e.BACKUP_INTERVAL,
    backupKeep: e.BACKUP_KEEP,
    retention: { historyDays: e.HISTORY_RETENTION_DAYS, trashDays: e.TRASH_RETENTION_DAYS },
    ...(e.CLOCK_TODAY ? { clockToday: e.CLOCK_TODAY } : {}),
  };
}

/** Which database the app uses, for the startup log: never the password. */
export function describeDatabase(config: Pick<AppConfig, 'databaseFile' | 'databaseUrl'>): string {
  if (!config.databaseUrl) return `SQLite ${config.databaseFile}`;
  try {
    const url = new URL(config.databaseUrl);
    const user = url.username ? `${decodeURIComponent(url.username)}@` : '';
    return `PostgreSQL ${user}${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`;
  } catch {
    return 'PostgreSQL (DATABASE_URL)';
  }
}
