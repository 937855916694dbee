import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HOURLY_MS, ScheduleJob } from '../../src/server/modules/schedules/schedule-job';

/** The schedules' timer with fake timers and a clock the test sets: at start, then hourly, never two at once. */
describe('the schedules job', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function job(run: (today: string) => Promise<{ posted: number; matched: number }>, clock: { today: () => string }) {
    const log = { info: vi.fn(), error: vi.fn() };
    return { job: new ScheduleJob({ run, clock, log }), log };
  }

  it('runs at start, then every hour, each time for the clock’s day', async () => {
    let today = '2026-03-01';
    const days: string[] = [];
    const { job: scheduler } = job(
      (day) => {
        days.push(day);
        return Promise.resolve({ posted: 0, matched: 0 });
      },
      { today: () => today },
    );
    scheduler.start();
    await scheduler.idle();
    expect(days).toEqual(['2026-03-01']);
    await vi.advanceTimersByTimeAsync(HOURLY_MS - 1);
    expect(days).toHaveLength(1);
    today = '2026-03-02';
    await vi.advanceTimersByTimeAsync(1);
    await scheduler.idle();
    expect(days).toEqual(['2026-03-01', '2026-03-02']);
    await vi.advanceTimersByTimeAsync(3 * HOURLY_MS);
    expect(days).toHaveLength(5);
    await scheduler.stop();
    await vi.advanceTimersByTimeAsync(5 * HOURLY_MS);
    expect(days).toHaveLength(5);
  });

  it('never runs twice at once: a run asked for meanwhile follows the one going on, and a failure is logged', async () => {
    let active = 0;
    let most = 0;
    let calls = 0;
    const { job: scheduler, log } = job(
      async () => {
        calls += 1;
        active += 1;
        most = Math.max(most, active);
        await new Promise((resolve) => setTimeout(resolve, 10));
        active -= 1;
        if (calls === 1) throw new Error('database gone');
        return { posted: 1, matched: 0 };
      },
      { today: () => '2026-03-01' },
    );
    scheduler.start();
    scheduler.runNow();
    scheduler.runNow();
    await vi.advanceTimersByTimeAsync(50);
    await scheduler.idle();
    expect({ calls, most }).toEqual({ calls: 2, most: 1 });
    expect(log.error).toHaveBeenCalledWith(expect.objectContaining({ today: '2026-03-01' }), 'schedules run failed');
    expect(log.info).toHaveBeenCalledWith({ today: '2026-03-01', posted: 1, matched: 0 }, 'schedules run');
    await scheduler.stop();
  });
});
