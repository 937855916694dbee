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

/** `pause` may answer nothing: the step is then followed by the next at once (see slicedPause). */
export async function runStepsAsync<T>(steps: Steps<T>, pause: () => Promise<void> | undefined): Promise<T> {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    const paused = pause();
    if (paused) await paused;
  }
}

/**
 * A pause that takes a turn of the event loop (`turn`, e.g. setImmediate) only once `sliceMs` of
 * work has run since the last turn (by `now`), and answers nothing otherwise. Steps are small (a
 * few hundred rows) so that no step holds the loop long; a turn after every one of them would cost
 * more than the steps themselves add up to in waiting for other requests.
 */
export function slicedPause(
  turn: () => Promise<void>,
  sliceMs: number,
  now: () => number,
): () => Promise<void> | undefined {
  let last = now();
  const resumed = () => {
    last = now();
  };
  return () => (now() - last < sliceMs ? undefined : turn().then(resumed));
}
