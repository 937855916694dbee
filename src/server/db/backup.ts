import { chmodSync, existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { privateFolder } from './storage';

/**
 * Consistent copies of the live SQLite database through SQLite's online backup API
 * (better-sqlite3's `db.backup()`), never a file copy: the copy is one snapshot of committed
 * data even while the server writes. Steps of `pagesPerStep` pages let the event loop breathe;
 * a write from another connection between steps makes SQLite start over, so after a few such
 * restarts the rest is copied in one step. The copy is written beside the target, checked with
 * `PRAGMA integrity_check`, switched to a single-file journal and only then renamed into place.
 */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

export interface BackupOptions {
  /** Pages copied per step (a page is 4 KB); default 1000. */
  pagesPerStep?: number;
  /** Restarts (writes from other connections) allowed before copying the rest at once; default 3. */
  maxRestarts?: number;
}

export interface BackupResult {
  file: string;
  bytes: number;
  pages: number;
  restarts: number;
  milliseconds: number;
}

const ALL_PAGES = 0x7fffffff;

export async function backupDatabase(
  databaseFile: string,
  targetFile: string,
  options: BackupOptions = {},
): Promise<BackupResult> {
  const started = performance.now();
  const target = path.resolve(targetFile);
  if (!existsSync(databaseFile)) throw new BackupError(`There is no database at ${databaseFile}`);
  if (existsSync(target))
    throw new BackupError(`${target} already exists; choose a new file name (a backup never overwrites)`);
  if (!existsSync(path.dirname(target))) throw new BackupError(`The folder ${path.dirname(target)} does not exist`);
  const partial = `${target}.partial-${process.pid}-${Date.now()}`;
  const pagesPerStep = Math.max(1, Math.floor(options.pagesPerStep ?? 1000));
  const maxRestarts = options.maxRestarts ?? 3;
  const source = new Database(databaseFile, { fileMustExist: true });
  let restarts = 0;
  let pages = 0;
  try {
    source.pragma('busy_timeout = 5000');
    let lastRemaining = Number.POSITIVE_INFINITY;
    const progress = await source.backup(partial, {
      progress({ totalPages, remainingPages }) {
        if (remainingPages > lastRemaining) restarts += 1;
        lastRemaining = remainingPages;
        pages = totalPages;
        return restarts >= maxRestarts ? ALL_PAGES : pagesPerStep;
      },
    });
    pages = progress.totalPages;
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    source.close();
  }
  try {
    const copy = new Database(partial, { fileMustExist: true });
    try {
      const check = copy.pragma('integrity_check', { simple: true });
      if (check !== 'ok') throw new BackupError(`The copy failed its integrity check: ${String(check)}`);
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    // Private whatever umask the command ran under: a backup holds every user's data.
    chmodSync(partial, 0o600);
    renameSync(partial, target);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  return { file: target, bytes: statSync(target).size, pages, restarts, milliseconds: performance.now() - started };
}

/** Scheduled backups are named by the time they were taken: budget-tracker-2024-05-01T03-00-00-000Z.sqlite. */
const SCHEDULED = /^budget-tracker-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z\.sqlite$/;

export function scheduledBackupName(at: Date): string {
  return `budget-tracker-${at.toISOString().replace(/[:.]/g, '-')}.sqlite`;
}

/** The scheduled backups in a folder, newest first (other files are never touched). */
export function scheduledBackups(dir: string): { file: string; takenAt: number }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((name) => {
      const match = SCHEDULED.exec(name);
      return match
        ? {
            file: path.join(dir, name),
            takenAt: Date.parse(`${match[1]}T${match[2]}:${match[3]}:${match[4]}.${match[5]}Z`),
          }
        : null;
    })
    .filter((entry): entry is { file: string; takenAt: number } => entry !== null && Number.isFinite(entry.takenAt))
    .sort((a, b) => b.takenAt - a.takenAt);
}

/** Deletes all but the `keep` newest scheduled backups; answers the deleted files. */
export function pruneBackups(dir: string, keep: number): string[] {
  const old = scheduledBackups(dir).slice(keep);
  for (const { file } of old) rmSync(file, { force: true });
  return old.map((entry) => entry.file);
}

/** A scheduled backup into `dir` now, then the oldest beyond `keep` removed. */
export async function backupIntoFolder(
  databaseFile: string,
  dir: string,
  keep: number,
  now = new Date(),
  options: BackupOptions = {},
): Promise<BackupResult & { pruned: string[] }> {
  privateFolder(dir);
  const result = await backupDatabase(databaseFile, path.join(dir, scheduledBackupName(now)), options);
  return { ...result, pruned: pruneBackups(dir, keep) };
}
