import { localIsoDate } from '../../shared/dates/calendar';
import { monthOfDate } from '../../shared/plan/months';

/** The calendar month the browser is in, `YYYY-MM` (the plan's "this month"). */
export function thisMonth(): string {
  return monthOfDate(localIsoDate(new Date()));
}
