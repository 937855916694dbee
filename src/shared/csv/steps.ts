/**
 * Stepwise work: a long pure computation written as a generator that yields (with no value)
 * between chunks. `runSteps` finishes it at once; `runStepsAsync` pauses at every step (the
 * caller decides how, e.g. setImmediate on a server), so a 100,000-row file does not hold
 * the event loop for the whole read.
 */
export type Steps<T> = Generator<void, T, void>;

export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

export async function runStepsAsync<T>(steps: Steps<T>, pause: () => Promise<void>): Promise<T> {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    await pause();
  }
}
