import { existsSync, readFileSync } from 'node:fs';

/**
 * How long this process ran without letting its event loop turn, in CPU time rather than wall-clock
 * time: a chain of setImmediate callbacks notes the event loop thread's CPU time at every turn, and the largest CPU
 * difference between two turns is the longest stretch of work that held the loop (a request arriving
 * meanwhile would have waited that long for the CPU this process got). CPU time does not grow while other
 * processes have the machine, so the figure is the same on a quiet machine and on a loaded one, where a
 * wall-clock bound ("health answers within 200 ms") fails whenever the scheduler looks elsewhere.
 */
export interface LoopWatch {
  /** Stops watching; answers the longest turn in CPU milliseconds and how many turns were seen. */
  stop: () => { longestTurnCpuMs: number; turns: number };
}

const processCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** The main thread's own /proc entry (Linux): its CPU ticks, in milliseconds (USER_HZ is 100 on Linux). */
const MAIN_THREAD_STAT = `/proc/self/task/${process.pid}/stat`;
const MS_PER_TICK = 10;

function procThreadCpuMs(): number {
  const stat = readFileSync(MAIN_THREAD_STAT, 'utf8');
  // After the command name in parentheses: field 3 (state) is index 0, utime (14) index 11, stime (15) index 12.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK;
}

type ThreadCpuUsage = () => { user: number; system: number };

/**
 * CPU time of the thread that runs the event loop, not of the whole process: V8's garbage-collector helpers and
 * libuv's thread pool (compression, file reads) run beside the loop without holding it, and on a busy machine
 * they can add tens of milliseconds to a turn measured by process.cpuUsage(). Node 23.9+ answers it directly
 * (process.threadCpuUsage, microseconds); on Linux it is read from /proc in 10 ms ticks; elsewhere the
 * process's CPU time stands in (an upper bound).
 */
const cpuMs: () => number = (() => {
  const threadCpuUsage = (process as { threadCpuUsage?: ThreadCpuUsage }).threadCpuUsage;
  if (threadCpuUsage) {
    return () => {
      const { user, system } = threadCpuUsage.call(process);
      return (user + system) / 1000;
    };
  }
  if (existsSync(MAIN_THREAD_STAT) && Number.isFinite(procThreadCpuMs())) return procThreadCpuMs;
  return processCpuMs;
})();

export function watchLoopTurns(): LoopWatch {
  let running = true;
  let longest = 0;
  let turns = 0;
  let last = cpuMs();
  const tick = () => {
    if (!running) return;
    const now = cpuMs();
    longest = Math.max(longest, now - last);
    last = now;
    turns += 1;
    setImmediate(tick);
  };
  setImmediate(tick);
  return {
    stop: () => {
      running = false;
      // The stretch since the last turn counts too.
      longest = Math.max(longest, cpuMs() - last);
      return { longestTurnCpuMs: longest, turns };
    },
  };
}

/** The CPU milliseconds `work` takes in this process (user + system), however busy the machine is. */
export function cpuTimeOf<T>(work: () => T): { value: T; cpuMs: number } {
  // The process's figure in microseconds (the /proc thread figure counts 10 ms ticks, too coarse for small work).
  const started = processCpuMs();
  const value = work();
  return { value, cpuMs: processCpuMs() - started };
}
