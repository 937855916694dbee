import { randomBytes } from 'node:crypto';
import {
  accessSync,
  chmodSync,
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  openSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/**
 * The data folder holds a household's whole financial life: it is private to the server's
 * user (folder 0700, files 0600) whatever umask the process started with, and a folder or
 * database the server cannot write is refused at start with the path and the cause.
 */
export class StorageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StorageError';
  }
}

const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;

/** New files and folders are private to the server's user. Call before anything opens files. */
export function usePrivateUmask(): void {
  try {
    process.umask(0o077);
  } catch {
    // Worker threads cannot change the umask; the explicit chmods below still apply.
  }
}

const CAUSES: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  ENOTDIR: 'a part of the path is not a folder',
  ENOENT: 'no such file or folder',
};

function cause(error: unknown): string {
  const code = error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : '';
  const message = error instanceof Error ? error.message : String(error);
  return code ? `${CAUSES[code] ?? message} (${code})` : message;
}

/** The cause by its error code alone: a driver's or the system's message may name a path. */
function publicCause(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string' || code === '') return 'unknown cause';
  const text = CAUSES[code] ?? (code.startsWith('SQLITE_READONLY') ? 'read-only' : 'refused');
  return `${text} (${code})`;
}

function ensureFolder(folder: string, label: string, tighten: boolean): void {
  try {
    mkdirSync(folder, { recursive: true, mode: PRIVATE_DIR });
  } catch (error) {
    throw new StorageError(`Cannot create ${label} ${folder}: ${cause(error)}`);
  }
  if (!statSync(folder).isDirectory()) throw new StorageError(`${label} ${folder} is not a folder`);
  if (tighten) {
    try {
      const mode = statSync(folder).mode & 0o777;
      if (mode & 0o077) chmodSync(folder, mode & PRIVATE_DIR);
    } catch {
      // Not ours to change (e.g. a mounted volume owned by someone else); the write probe decides.
    }
  }
  // access(W_OK) would say yes to root on a read-only mount: create a file to be sure.
  const probe = path.join(folder, `.write-probe-${randomBytes(6).toString('hex')}`);
  try {
    writeFileSync(probe, '', { mode: PRIVATE_FILE });
    unlinkSync(probe);
  } catch (error) {
    throw new StorageError(`${label} ${folder} is not writable: ${cause(error)}`);
  }
}

/**
 * A folder of copies of the database (BACKUP_DIR): created 0700, and an existing one tightened to 0700, since each
 * backup holds every user's data. Answers the folder.
 */
export function privateFolder(folder: string): string {
  mkdirSync(folder, { recursive: true, mode: PRIVATE_DIR });
  const mode = statSync(folder).mode & 0o777;
  if (mode !== PRIVATE_DIR) chmodSync(folder, PRIVATE_DIR);
  return folder;
}

/** The database file and SQLite's companions. */
export function databaseFiles(databaseFile: string): string[] {
  return [databaseFile, `${databaseFile}-wal`, `${databaseFile}-shm`, `${databaseFile}-journal`];
}

/**
 * Takes group and other permissions off whichever of `files` exist (0644 -> 0600); never adds
 * any (a file made read-only on purpose stays so, and is then refused).
 */
export function tightenFiles(files: readonly string[]): void {
  for (const file of files) {
    if (!existsSync(file)) continue;
    const mode = statSync(file).mode & 0o777;
    if ((mode & 0o077) === 0) continue;
    try {
      chmodSync(file, mode & PRIVATE_FILE);
    } catch (error) {
      throw new StorageError(`Cannot make ${file} private (mode 0600): ${cause(error)}`);
    }
  }
}

/**
 * Before the database opens: the data folder exists, is 0700 and writable; the database's
 * folder is writable (SQLite writes -wal and -shm files beside it); existing files are 0600 and
 * the database file can be opened for writing.
 */
export function preparePrivateStorage(dataDir: string, databaseFile: string | null): void {
  ensureFolder(dataDir, 'DATA_DIR', true);
  if (databaseFile === null) {
    // PostgreSQL: only the signing secret lives here.
    tightenFiles([path.join(dataDir, 'jwt-secret')]);
    return;
  }
  const databaseFolder = path.dirname(databaseFile);
  if (path.resolve(databaseFolder) !== path.resolve(dataDir))
    ensureFolder(databaseFolder, 'The database folder', false);
  tightenFiles([...databaseFiles(databaseFile), path.join(dataDir, 'jwt-secret')]);
  if (existsSync(databaseFile)) {
    try {
      closeSync(openSync(databaseFile, 'r+'));
    } catch (error) {
      throw new StorageError(`The database file ${databaseFile} is not writable (read-only): ${cause(error)}`);
    }
  }
}

/** `reason` names no path (unauthenticated health checks show it); `detail` does, for the log and start-up. */
export type WriteProbe = { ok: true } | { ok: false; reason: string; detail: string };

/**
 * Can the database be written right now? The file and its folder must be writable for the
 * server's user (SQLite inside this process would reuse the descriptors it opened at start
 * and not notice a permission change), and a row written on a fresh connection inside a
 * transaction (rolled back, so nothing is kept) must go through. A lock held by another writer
 * (an import) means writing works.
 */
export function probeDatabaseWrite(databaseFile: string): WriteProbe {
  for (const [target, label] of [
    [databaseFile, 'The database file'],
    [path.dirname(databaseFile), 'The database folder'],
  ] as const) {
    try {
      accessSync(target, constants.W_OK);
    } catch (error) {
      return {
        ok: false,
        reason: `${label} is not writable (read-only): ${publicCause(error)}`,
        detail: `${label} ${target} is not writable (read-only): ${cause(error)}`,
      };
    }
  }
  let db: Database.Database | undefined;
  try {
    db = new Database(databaseFile, { fileMustExist: true, timeout: 0 });
    db.exec('BEGIN IMMEDIATE');
    try {
      db.prepare("insert into auth_failure (scope, at) values ('write-probe', '')").run();
    } finally {
      if (db.inTransaction) db.exec('ROLLBACK');
    }
    return { ok: true };
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return { ok: true };
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      reason: `The database file cannot be written: ${publicCause(error)}`,
      detail: `The database file ${databaseFile} cannot be written: ${message}`,
    };
  } finally {
    db?.close();
  }
}
