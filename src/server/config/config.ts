import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * The one place that reads process.env. Every setting has a default so the app
 * starts with no configuration at all; a bad value stops startup with a list of
 * what is wrong.
 */
const booleanText = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Durations such as `900` (seconds), `15m`, `12h`, `30d`. */
const durationText = z
  .string()
  .regex(/^\d+\s*[smhd]?$/, 'expected seconds or a number followed by s, m, h or d')
  .transform((v) => {
    const match = /^(\d+)\s*([smhd]?)$/.exec(v)!;
    const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[match[2] as '' | 's' | 'm' | 'h' | 'd'];
    return Number(match[1]) * unit;
  })
  .refine((seconds) => seconds > 0, 'must be longer than 0 seconds');

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_FILE: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ALLOW_REGISTRATION: booleanText.default(true),
  ACCESS_TOKEN_TTL: durationText.default(15 * 60),
  REFRESH_TOKEN_TTL: durationText.default(30 * 86400),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(10),
  LOGIN_WINDOW: durationText.default(15 * 60),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
  UPLOAD_LIMIT_BYTES: z.coerce.number().int().min(1024).default(10 * 1024 * 1024),
  TRUST_PROXY: booleanText.default(false),
  CLIENT_DIR: z.string().min(1).optional(),
  RESTORE_LIMIT_BYTES: z.coerce.number().int().min(1024).default(100 * 1024 * 1024),
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_INTERVAL: durationText.default(24 * 3600),
  BACKUP_KEEP: z.coerce.number().int().min(1, 'must be at least 1').default(7),
});

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseFile: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  allowRegistration: boolean;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** When unset, a secret is generated on first start and kept in the data directory. */
  jwtSecret?: string;
  loginMaxFailures: number;
  loginWindowSeconds: number;
  bodyLimitBytes: number;
  uploadLimitBytes: number;
  trustProxy: boolean;
  /** The built React app; `dist/client` next to the server bundle by default. */
  clientDir: string;
  /** Largest "all my data" document POST /api/import takes. */
  restoreLimitBytes: number;
  /** Scheduled backups: the folder (none when unset), how often (seconds) and how many to keep. */
  backupDir?: string;
  backupIntervalSeconds: number;
  backupKeep: number;
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
    logLevel: e.LOG_LEVEL,
    allowRegistration: e.ALLOW_REGISTRATION,
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL,
    refreshTokenTtlSeconds: e.REFRESH_TOKEN_TTL,
    jwtSecret: e.JWT_SECRET,
    loginMaxFailures: e.LOGIN_MAX_FAILURES,
    loginWindowSeconds: e.LOGIN_WINDOW,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    uploadLimitBytes: e.UPLOAD_LIMIT_BYTES,
    trustProxy: e.TRUST_PROXY,
    clientDir: e.CLIENT_DIR ? path.resolve(e.CLIENT_DIR) : path.resolve('dist/client'),
    restoreLimitBytes: e.RESTORE_LIMIT_BYTES,
    backupDir: e.BACKUP_DIR ? path.resolve(e.BACKUP_DIR) : undefined,
    backupIntervalSeconds: e.BACKUP_INTERVAL,
    backupKeep: e.BACKUP_KEEP,
  };
}
