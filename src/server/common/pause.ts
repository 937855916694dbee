import { slicedPause } from '../../shared/csv/steps';

/**
 * Work over a user's data between two turns of the event loop, in ms. Long loops (an import, rules run over
 * stored rows, learning, a restore) are cut into small steps and call `pause` between them: a turn of the event
 * loop once this much work has run, so every other request waits at most about this long behind them.
 */
export const PAUSE_SLICE_MS = 5;

export const turnOfEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A turn of the event loop when the slice has run out (one clock for all such work in this process); else nothing. */
export const pause = slicedPause(turnOfEventLoop, PAUSE_SLICE_MS, () => performance.now());
