/**
 * How long this process ran without letting its event loop turn, in CPU time rather than wall-clock
 * time: a chain of setImmediate callbacks notes process.cpuUsage() at every turn, and the largest CPU
 * difference between two turns is the longest stretch of work that held the loop (a request arriving
 * meanwhile would have waited that long for the CPU this process got). CPU time does not grow while other
 * processes have the machine, so the figure is the same on a quiet machine and on a loaded one, where a
 * wall-clock bound ("health answers within 200 ms") fails whenever the scheduler looks elsewhere.
 */
export interface LoopWatch {
  /** Stops watching; answers the longest turn in CPU milliseconds and how many turns were seen. */
  stop: () => { longestTurnCpuMs: number; turns: number };
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

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
  const started = cpuMs();
  const value = work();
  return { value, cpuMs: cpuMs() - started };
}
