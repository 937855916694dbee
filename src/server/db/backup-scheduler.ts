import type { FastifyInstance } from 'fastify';
import { backupIntoFolder, scheduledBackups } from './backup';
import { privateFolder } from './storage';

export interface BackupSchedule {
  databaseFile: string;
  dir: string;
  intervalSeconds: number;
  keep: number;
  log: { info: (fields: object, message: string) => void; error: (fields: object, message: string) => void };
}

/** Timers cannot wait longer than 2^31 - 1 ms; a longer wait is taken in parts. */
const LONGEST_TIMER = 2 ** 31 - 1;
/** After a failed backup (disk full, folder gone) the next try comes this soon at the latest. */
const RETRY_AFTER_MS = 15 * 60_000;

/**
 * Writes a backup every `intervalSeconds` into `dir`, keeping the `keep` newest. The first is
 * due one interval after the newest backup already there (at once when there is none), so
 * restarts neither skip nor pile up backups.
 */
export class BackupScheduler {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private dueAt = 0;

  constructor(private readonly schedule: BackupSchedule) {}

  start(): void {
    privateFolder(this.schedule.dir);
    const newest = scheduledBackups(this.schedule.dir)[0];
    this.planAt(newest ? newest.takenAt + this.schedule.intervalSeconds * 1000 : Date.now());
  }

  /** Resolves when no backup is being written. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.idle();
  }

  private planAt(dueAt: number): void {
    if (this.stopped) return;
    this.dueAt = dueAt;
    const wait = Math.min(Math.max(0, dueAt - Date.now()), LONGEST_TIMER);
    this.timer = setTimeout(() => this.wake(), wait);
    this.timer.unref();
  }

  private wake(): void {
    this.timer = null;
    if (Date.now() < this.dueAt) {
      this.planAt(this.dueAt);
      return;
    }
    this.running = this.run().finally(() => {
      this.running = null;
    });
  }

  private async run(): Promise<void> {
    const { databaseFile, dir, keep, intervalSeconds, log } = this.schedule;
    const now = new Date();
    try {
      const result = await backupIntoFolder(databaseFile, dir, keep, now);
      log.info(
        { file: result.file, bytes: result.bytes, restarts: result.restarts, pruned: result.pruned.length },
        'backup written',
      );
      this.planAt(now.getTime() + intervalSeconds * 1000);
    } catch (error) {
      log.error({ err: error, dir }, 'backup failed');
      this.planAt(Date.now() + Math.min(intervalSeconds * 1000, RETRY_AFTER_MS));
    }
  }
}

/** With BACKUP_DIR set, a listening server writes scheduled backups (the demo command never listens). */
export function registerBackups(app: FastifyInstance): void {
  const { backupDir, databaseFile, backupIntervalSeconds, backupKeep } = app.config;
  if (!backupDir) return;
  const scheduler = new BackupScheduler({
    databaseFile,
    dir: backupDir,
    intervalSeconds: backupIntervalSeconds,
    keep: backupKeep,
    log: app.log,
  });
  app.addHook('onListen', (done) => {
    scheduler.start();
    done();
  });
  app.addHook('onClose', async () => scheduler.stop());
}
