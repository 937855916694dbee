import { localIsoDate } from '../../shared/dates/calendar';

/** What the server takes as today: the calendar date schedules come due by. Tests pass a clock they control. */
export interface Clock {
  today: () => string;
}

export const systemClock: Clock = { today: () => localIsoDate(new Date()) };

/** A clock that stays on one date (CLOCK_TODAY): a demonstration or a test of days gone by. */
export function fixedClock(date: string): Clock {
  return { today: () => date };
}
