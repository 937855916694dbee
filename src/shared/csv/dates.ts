/** Date formats and their inference from every row of a file. */
import { toIsoDate } from '../dates/calendar';
import { must } from '../must';

export interface DateFormat {
  /** Token form shown to people and accepted as `dateFormat`, e.g. `DD/MM/YYYY`. */
  name: string;
  pattern: RegExp;
  /** Indexes of year, month, day in the match (1-based groups); month may be a name. */
  order: [year: number, month: number, day: number];
}

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
  mär: 3,
  mrz: 3,
  mai: 5,
  okt: 10,
  dez: 12,
  janv: 1,
  févr: 2,
  fevr: 2,
  mars: 3,
  avr: 4,
  juin: 6,
  juil: 7,
  août: 8,
  aout: 8,
  déc: 12,
  ene: 1,
  abr: 4,
  ago: 8,
  dic: 12,
  mei: 5,
  maa: 3,
};

// Date cells may carry a time or a note after the date ("2017-04-25T03:15:53", "04/17/2023 as of 04/15/2023").
const TAIL = '(?:[T\\s].*)?$';
export const DATE_FORMATS: DateFormat[] = [
  { name: 'YYYY-MM-DD', pattern: new RegExp(`^(\\d{4})-(\\d{1,2})-(\\d{1,2})${TAIL}`), order: [1, 2, 3] },
  { name: 'YYYY/MM/DD', pattern: new RegExp(`^(\\d{4})/(\\d{1,2})/(\\d{1,2})${TAIL}`), order: [1, 2, 3] },
  { name: 'YYYY.MM.DD', pattern: new RegExp(`^(\\d{4})\\.(\\d{1,2})\\.(\\d{1,2})${TAIL}`), order: [1, 2, 3] },
  { name: 'YYYYMMDD', pattern: /^(\d{4})(\d{2})(\d{2})$/, order: [1, 2, 3] },
  { name: 'MM/DD/YYYY', pattern: new RegExp(`^(\\d{1,2})/(\\d{1,2})/(\\d{4})${TAIL}`), order: [3, 1, 2] },
  { name: 'DD/MM/YYYY', pattern: new RegExp(`^(\\d{1,2})/(\\d{1,2})/(\\d{4})${TAIL}`), order: [3, 2, 1] },
  { name: 'MM/DD/YY', pattern: new RegExp(`^(\\d{1,2})/(\\d{1,2})/(\\d{2})${TAIL}`), order: [3, 1, 2] },
  { name: 'DD/MM/YY', pattern: new RegExp(`^(\\d{1,2})/(\\d{1,2})/(\\d{2})${TAIL}`), order: [3, 2, 1] },
  { name: 'DD.MM.YYYY', pattern: new RegExp(`^(\\d{1,2})\\.(\\d{1,2})\\.(\\d{4})${TAIL}`), order: [3, 2, 1] },
  { name: 'DD.MM.YY', pattern: new RegExp(`^(\\d{1,2})\\.(\\d{1,2})\\.(\\d{2})${TAIL}`), order: [3, 2, 1] },
  { name: 'DD-MM-YYYY', pattern: new RegExp(`^(\\d{1,2})-(\\d{1,2})-(\\d{4})${TAIL}`), order: [3, 2, 1] },
  { name: 'MM-DD-YYYY', pattern: new RegExp(`^(\\d{1,2})-(\\d{1,2})-(\\d{4})${TAIL}`), order: [3, 1, 2] },
  { name: 'DD-MM-YY', pattern: new RegExp(`^(\\d{1,2})-(\\d{1,2})-(\\d{2})${TAIL}`), order: [3, 2, 1] },
  {
    name: 'DD MMM YYYY',
    pattern: /^(\d{1,2})[\s\-./]+([A-Za-zÀ-ÿ]{3,5})\.?[\s\-./,]+(\d{4}|\d{2})$/,
    order: [3, 2, 1],
  },
  { name: 'MMM DD, YYYY', pattern: /^([A-Za-zÀ-ÿ]{3,5})\.?\s+(\d{1,2}),?\s+(\d{4})$/, order: [3, 1, 2] },
];

/** Aliases people may type for `dateFormat`. */
const ALIASES: Record<string, string> = {
  'M/D/YYYY': 'MM/DD/YYYY',
  'D/M/YYYY': 'DD/MM/YYYY',
  'M/D/YY': 'MM/DD/YY',
  'D/M/YY': 'DD/MM/YY',
  'D.M.YYYY': 'DD.MM.YYYY',
  'D.M.YY': 'DD.MM.YY',
  'DD-MON-YYYY': 'DD MMM YYYY',
  'DD MON YYYY': 'DD MMM YYYY',
  'DD-MMM-YYYY': 'DD MMM YYYY',
  ISO: 'YYYY-MM-DD',
};

export function findDateFormat(name: string): DateFormat | undefined {
  const upper = name.trim().toUpperCase();
  const canonical = ALIASES[upper] ?? upper;
  return DATE_FORMATS.find((f) => f.name === canonical);
}

function year(text: string): number {
  const n = Number(text);
  if (text.length === 4) return n;
  return n < 70 ? 2000 + n : 1900 + n;
}

/** Parses one date cell with one format; null when it does not fit or names no real day. */
export function parseDateWith(format: DateFormat, raw: string): string | null {
  const match = format.pattern.exec(raw.trim());
  if (!match) return null;
  const [yi, mi, di] = format.order;
  const yearText = match[yi];
  const monthText = match[mi];
  const dayText = match[di];
  if (yearText === undefined || monthText === undefined || dayText === undefined) return null;
  const month = /^\d+$/.test(monthText) ? Number(monthText) : MONTHS[monthText.toLowerCase().replace(/\.$/, '')];
  if (!month) return null;
  return toIsoDate(year(yearText), month, Number(dayText));
}

/** True when a cell has the shape of a date in some format (used to tell data rows from other lines). */
const DATE_SHAPE =
  /^(\d{1,4}[-/.]\d{1,2}[-/.]\d{2,4}|\d{8}$|\d{1,2}[\s\-./]+[A-Za-zÀ-ÿ]{3,5}|[A-Za-zÀ-ÿ]{3,5}\.?\s+\d{1,2},?\s+\d{4}$)/;
export function looksLikeDate(raw: string): boolean {
  const text = raw.trim();
  return DATE_SHAPE.test(text) && DATE_FORMATS.some((f) => f.pattern.test(text));
}

/** Every format that reads all the given cells. */
export function dateFormatCandidates(values: readonly string[]): DateFormat[] {
  const distinct = [...new Set(values)];
  return DATE_FORMATS.filter((format) => distinct.every((value) => parseDateWith(format, value) !== null));
}

export interface DatedCell {
  line: number;
  value: string;
}

export type DateChoice =
  | { ok: true; format: DateFormat; candidates: string[]; warning: string | null }
  | {
      ok: false;
      code: 'UNKNOWN_DATE_FORMAT' | 'BAD_DATE' | 'AMBIGUOUS_DATE';
      message: string;
      details: Record<string, unknown>;
    };

/**
 * The one date format of a file, inferred from all its dates: a given format must read
 * every date; a day/month ambiguity is settled by the account's last format or refused
 * naming the candidates. Shared by every reader (CSV, QIF, ...).
 */
export function chooseDateFormat(
  cells: readonly DatedCell[],
  options: { dateFormat?: string | null; preferredDateFormat?: string | null },
): DateChoice {
  const fitting = dateFormatCandidates(cells.map((c) => c.value));
  const names = fitting.map((f) => f.name);
  if (options.dateFormat) {
    const format = findDateFormat(options.dateFormat);
    if (!format)
      return {
        ok: false,
        code: 'UNKNOWN_DATE_FORMAT',
        message: `Unknown date format '${options.dateFormat}'.`,
        details: { candidates: names },
      };
    const bad = cells.find((c) => parseDateWith(format, c.value) === null);
    if (bad) {
      return {
        ok: false,
        code: 'BAD_DATE',
        message: `Line ${bad.line}: the date '${bad.value}' does not match ${format.name}.`,
        details: { line: bad.line, value: bad.value, candidates: names },
      };
    }
    return { ok: true, format, candidates: names, warning: null };
  }
  const [onlyFit, ...otherFits] = fitting;
  if (onlyFit === undefined) {
    // Name the first row no single format can read.
    const unreadable = cells.find((c) => dateFormatCandidates([c.value]).length === 0);
    const culprit = must(unreadable ?? cells[0], 'a file has at least one dated row');
    return {
      ok: false,
      code: 'BAD_DATE',
      message: `Line ${culprit.line}: the date '${culprit.value}' cannot be read${unreadable ? '' : ' in the same format as the other rows'}.`,
      details: { line: culprit.line, value: culprit.value },
    };
  }
  if (otherFits.length === 0) return { ok: true, format: onlyFit, candidates: names, warning: null };
  const unique = [...new Set(cells.map((c) => c.value))];
  const readings = new Set(fitting.map((f) => unique.map((v) => parseDateWith(f, v)).join()));
  if (readings.size === 1) return { ok: true, format: onlyFit, candidates: names, warning: null };
  const preferredName = options.preferredDateFormat ? findDateFormat(options.preferredDateFormat)?.name : undefined;
  const preferred = preferredName ? fitting.find((f) => f.name === preferredName) : undefined;
  if (preferred) {
    return {
      ok: true,
      format: preferred,
      candidates: names,
      warning: `Day and month order is ambiguous in this file; used ${preferred.name} as in this account's last import.`,
    };
  }
  return {
    ok: false,
    code: 'AMBIGUOUS_DATE',
    message: `The date order is ambiguous: every date fits ${names.join(' and ')}. Choose the date format and upload again.`,
    details: { candidates: names },
  };
}
