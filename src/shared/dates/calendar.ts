/**
 * Calendar dates as `YYYY-MM-DD` strings. No Date objects and no time zones: a
 * date is a day on the calendar, the same everywhere.
 */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** True for a real day: 2024-02-29 yes, 2023-02-29 and 2024-02-30 no. Years 1000-9999. */
export function isValidCalendarDate(year: number, month: number, day: number): boolean {
  return (
    Number.isInteger(year) &&
    Number.isInteger(month) &&
    Number.isInteger(day) &&
    year >= 1000 &&
    year <= 9999 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month)
  );
}

/** `YYYY-MM-DD` for a valid day, or null. */
export function toIsoDate(year: number, month: number, day: number): string | null {
  if (!isValidCalendarDate(year, month, day)) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * `YYYY-MM-DD` for a day the caller knows is real (the first or the last day of a month, today's fields);
 * throws a RangeError when it is not, instead of handing on a null.
 */
export function isoDateOf(year: number, month: number, day: number): string {
  const text = toIsoDate(year, month, day);
  if (text === null) throw new RangeError(`Not a calendar date: ${year}-${month}-${day}`);
  return text;
}

/** True when `text` is exactly `YYYY-MM-DD` and names a real day. */
export function isIsoDate(text: string): boolean {
  return parseIsoDate(text) !== null;
}

/** Splits a valid `YYYY-MM-DD` into numbers, or null. */
export function parseIsoDate(text: string): { year: number; month: number; day: number } | null {
  const match = ISO_DATE.exec(text);
  if (!match) return null;
  const [, yearText, monthText, dayText] = match;
  const [year, month, day] = [Number(yearText), Number(monthText), Number(dayText)];
  return isValidCalendarDate(year, month, day) ? { year, month, day } : null;
}

/** Days since 1970-01-01 for a valid date (proleptic Gregorian), for date arithmetic without time zones. */
export function toDayNumber(text: string): number {
  const parts = parseIsoDate(text);
  if (!parts) throw new RangeError(`Not a calendar date: ${text}`);
  const { year, month, day } = parts;
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The `YYYY-MM-DD` of a day number (inverse of toDayNumber). */
export function fromDayNumber(days: number): string {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export function addDays(text: string, days: number): string {
  return fromDayNumber(toDayNumber(text) + days);
}

/** Today's calendar date in the given clock's local time zone (callers pass `new Date()`). */
export function localIsoDate(now: Date): string {
  return isoDateOf(now.getFullYear(), now.getMonth() + 1, now.getDate());
}
