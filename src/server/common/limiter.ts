/** Runs at most `limit` tasks at once; the others start in arrival order as running ones settle. */
export function limiter(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await task();
    } finally {
      // A settled task hands its place straight to the next one waiting.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
