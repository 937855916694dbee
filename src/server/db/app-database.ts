/**
 * The app's database with what each kind needs around it. SQLite: a private file, probed for
 * writes at start and (at most once a second) by health checks, read for health through its own
 * read-only handle (WAL lets it read while an import writes), copied by scheduled backups, and its
 * reader threads closed with it. PostgreSQL: the pool answers health checks, and a read-only or full
 * server fails the writes themselves; it is backed up with its own tools.
 */
import Database from 'better-sqlite3';
import { describeDatabase, type AppConfig } from '../config/config';
import { databaseAnswers, openDatabase, type Orm } from './database';
import { databaseTarget } from './orm-options';
import { closeSqliteReader } from './read-worker/pool';
import {
  databaseFiles,
  preparePrivateStorage,
  probeDatabaseWrite,
  StorageError,
  tightenFiles,
  type WriteProbe,
} from './storage';

export type DatabaseHealth = { ok: true } | { ok: false; status: 'unavailable' | 'degraded'; reason: string };

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
      return lastProbe.result.ok ? { ok: true } : { ok: false, status: 'degraded', reason: lastProbe.result.reason };
    },
    async close() {
      reader.close();
      await orm.close(true);
      await closeSqliteReader(file);
    },
  };
}

/** Opens the configured database (migrated to the committed schema), logging what it opens. */
export async function openAppDatabase(
  config: AppConfig,
  log: (message: string, fields?: object) => void,
): Promise<AppDatabase> {
  const target = databaseTarget(config);
  const file = target.dialect === 'sqlite' ? target.file : null;
  // The data folder holds the signing secret on either database; the SQLite file only without DATABASE_URL.
  preparePrivateStorage(config.dataDir, file);
  log(`database: ${describeDatabase(config)}`, { database: describeDatabase(config) });
  const orm = await openDatabase(target, (message) => log(message));
  if (file === null) {
    const health = async () => ((await answersSoon(orm, 1000)) ? { ok: true as const } : NOT_ANSWERING);
    return { orm, backupFile: null, health, close: () => orm.close(true) };
  }
  try {
    tightenFiles(databaseFiles(file));
    const probe = probeDatabaseWrite(file);
    if (!probe.ok) throw new StorageError(probe.reason);
    return { orm, backupFile: file, ...sqliteHealth(orm, file) };
  } catch (error) {
    await orm.close(true);
    throw error;
  }
}
