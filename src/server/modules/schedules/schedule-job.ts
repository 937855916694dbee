import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../common/clock';
import { purgeAllExpired } from '../history/retention';
import { runAllSchedules, type RunResult } from './schedule-runs';

export const HOURLY_MS = 60 * 60_000;

export interface ScheduleJobOptions {
  /** One run over every user's schedules for the given day. */
  run: (today: string) => Promise<RunResult>;
  clock: Clock;
  intervalMs?: number;
  log: { error: (fields: object, message: string) => void; info: (fields: object, message: string) => void };
}

/**
 * Runs the schedules at start and then every hour. Runs never overlap (a run asked for while one
 * is going follows it); a failed run is logged and the next one catches up, since each run posts
 * every date up to today that has not been posted.
 */
export class ScheduleJob {
  private timer: ReturnType<typeof setInterval> | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private runs = 0;

  constructor(private readonly options: ScheduleJobOptions) {}

  start(): void {
    this.stopped = false;
    this.runNow();
    this.timer = setInterval(() => this.runNow(), this.options.intervalMs ?? HOURLY_MS);
    this.timer.unref();
  }

  /** Starts a run (or one after the run going on). */
  runNow(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.runOnce().finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        this.runNow();
      }
    });
  }

  /** Resolves when no run is going on. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.idle();
  }

  private async runOnce(): Promise<void> {
    const today = this.options.clock.today();
    try {
      const result = await this.options.run(today);
      // The run at start is always logged (it says the server caught up); later ones when they did something.
      if (this.runs === 0 || result.posted > 0 || result.matched > 0)
        this.options.log.info({ today, ...result }, 'schedules run');
    } catch (error) {
      this.options.log.error({ err: error, today }, 'schedules run failed');
    }
    this.runs += 1;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    scheduleJob: ScheduleJob;
  }
}

/**
 * A listening server runs the schedules at start and hourly (the demo and backup commands never listen), and the
 * same run deletes for good every user's history and trash that outlived their retention: reading them also does,
 * but a user who never looks would otherwise keep them for ever.
 */
export function registerScheduleJob(app: FastifyInstance, clock: Clock): void {
  const job = new ScheduleJob({
    clock,
    log: app.log,
    run: async (today) => {
      const result = await runAllSchedules(app.orm.em.fork(), today, (userId, error) =>
        app.log.error({ err: error, userId }, 'schedules run failed for a user'),
      );
      const purged = await purgeAllExpired(app.orm.em.fork(), app.services.retention, (userId, error) =>
        app.log.error({ err: error, userId }, 'retention purge failed for a user'),
      );
      if (purged.trashed > 0 || purged.entries > 0) app.log.info(purged, 'expired history and trash deleted');
      return result;
    },
  });
  app.decorate('scheduleJob', job);
  app.addHook('onListen', (done) => {
    job.start();
    done();
  });
  app.addHook('preClose', async () => job.stop());
}
