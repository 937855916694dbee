/**
 * The app's database with what each kind needs around it. SQLite: a private file, probed for
 * writes at start and (at most once a second) by health checks, read for health through its own
 * read-only handle (WAL lets it read while an import writes), copied by scheduled backups, and its
 * reader and checkpoint threads closed with it. PostgreSQL: the pool answers health checks, and a read-only or full
 * server fails the writes themselves; it is backed up with its own tools.
 */
import Database from 'better-sqlite3';
import { describeDatabase, type AppConfig } from '../config/config';
import { databaseAnswers, openDatabase, roleBypassingRowSecurity, type Orm } from './database';
import { databaseTarget } from './orm-options';
import { closeSqliteReader } from './read-worker/pool';
import { closeCheckpointer } from './wal-checkpoint';
import {
  databaseFiles,
  preparePrivateStorage,
  probeDatabaseWrite,
  StorageError,
  tightenFiles,
  type WriteProbe,
} from './storage';

/**
 * `reason` is shown to anyone (no paths); `detail` goes to the log. `warning`: the database works but runs without a protection it should have (an operator's override); health
 * reports it as degraded while the server keeps serving.
 */
export type DatabaseHealth =
  { ok: true; warning?: string } | { ok: false; status: 'unavailable' | 'degraded'; reason: string; detail?: string };

/**
 * Start-up refused because the PostgreSQL role bypasses row-level security: every user would see every user's
 * rows. The message says how to create a role that does not.
 */
export class DatabaseRoleError extends Error {
  constructor(role: string) {
    super(
      [
        `the PostgreSQL role "${role}" is a superuser or has BYPASSRLS, so row-level security would not keep one user's rows from another.`,
        'Connect as a role that owns the database and is neither. As the administrator (psql -U postgres):',
        "  create role budget_app login nosuperuser nobypassrls nocreatedb nocreaterole password 'choose-a-password';",
        "  create database budget owner budget_app encoding 'UTF8';",
        'then set DATABASE_URL=postgres://budget_app:choose-a-password@host:5432/budget (an existing database: docs/security.md, "PostgreSQL: row-level security").',
        'ALLOW_RLS_BYPASS=true starts anyway, with a warning at every start and /api/health reporting degraded.',
      ].join('\n'),
    );
    this.name = 'DatabaseRoleError';
  }
}

const RLS_BYPASSED =
  'Row-level security is bypassed: the PostgreSQL role is a superuser or has BYPASSRLS (ALLOW_RLS_BYPASS=true)';

export interface AppDatabase {
  orm: Orm;
  /** The file scheduled backups copy; null for a database backed up with its own tools. */
  backupFile: string | null;
  health: () => Promise<DatabaseHealth>;
  close: () => Promise<void>;
}

/** The ORM connection may be busy with a long import; that is not ill health. */
async function answersSoon(orm: Orm, waitMs: number): Promise<boolean> {
  const timeout = new Promise<'busy'>((resolve) => setTimeout(() => resolve('busy'), waitMs).unref());
  const answer = await Promise.race([databaseAnswers(orm), timeout]);
  return answer === 'busy' || answer;
}

const NOT_ANSWERING: DatabaseHealth = { ok: false, status: 'unavailable', reason: 'Database is not answering' };

function sqliteHealth(orm: Orm, file: string): Pick<AppDatabase, 'health' | 'close'> {
  const reader = new Database(file, { readonly: true, fileMustExist: true });
  let lastProbe: { at: number; result: WriteProbe } | null = null;
  const readable = () => {
    try {
      return reader.prepare('select 1 as ok').get() !== undefined;
    } catch {
      return false;
    }
  };
  return {
    async health() {
      if (!readable() || !(await answersSoon(orm, 50))) return NOT_ANSWERING;
      const now = Date.now();
      if (!lastProbe || now - lastProbe.at >= 1000) lastProbe = { at: now, result: probeDatabaseWrite(file) };
      const probe = lastProbe.result;
      return probe.ok ? { ok: true } : { ok: false, status: 'degraded', reason: probe.reason, detail: probe.detail };
    },
    async close() {
      reader.close();
      await orm.close(true);
      await closeCheckpointer(file);
      await closeSqliteReader(file);
    },
  };
}

/** Opens the configured database (migrated to the committed schema), logging what it opens. */
export async function openAppDatabase(
  config: AppConfig,
  log: (message: string, fields?: object) => void,
  warn: (message: string, fields?: object) => void = log,
): Promise<AppDatabase> {
  const target = databaseTarget(config);
  const file = target.dialect === 'sqlite' ? target.file : null;
  // The data folder holds the signing secret on either database; the SQLite file only without DATABASE_URL.
  preparePrivateStorage(config.dataDir, file);
  log(`database: ${describeDatabase(config)}`, { database: describeDatabase(config) });
  const role: { bypassing: string | null } = { bypassing: null };
  // Checked before migrations run, so a refused role creates nothing.
  const checkRole = async (opened: Orm) => {
    if (file !== null) return;
    const bypassing = await roleBypassingRowSecurity(opened);
    if (bypassing === null) return;
    if (!config.allowRlsBypass) throw new DatabaseRoleError(bypassing);
    role.bypassing = bypassing;
    warn(`database: ${RLS_BYPASSED}; every user can read every user's rows`, { role: bypassing });
  };
  const orm = await openDatabase(target, (message) => log(message), false, checkRole);
  if (file === null) {
    const warning = role.bypassing === null ? {} : { warning: RLS_BYPASSED };
    const health = async (): Promise<DatabaseHealth> =>
      (await answersSoon(orm, 1000)) ? { ok: true, ...warning } : NOT_ANSWERING;
    return { orm, backupFile: null, health, close: () => orm.close(true) };
  }
  try {
    tightenFiles(databaseFiles(file));
    const probe = probeDatabaseWrite(file);
    if (!probe.ok) throw new StorageError(probe.detail);
    return { orm, backupFile: file, ...sqliteHealth(orm, file) };
  } catch (error) {
    await orm.close(true);
    throw error;
  }
}
