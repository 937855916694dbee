/**
 * The checks every reader's rows pass before they are answered (CSV and statements alike):
 * no control characters stored, amounts within MAX_AMOUNT_CENTS, descriptions within
 * DESCRIPTION_MAX_LENGTH (shortened with a warning), and a warning when a file mixes
 * currencies.
 */
import { DESCRIPTION_MAX_LENGTH, MAX_AMOUNT_CENTS } from '../limits';
import { runSteps, type Steps } from './steps';
import { RECORDS_PER_STEP } from './tokenize';
import { fail, type CsvReadFailure, type CsvRow, type SkippedLine } from './types';
import { must } from '../must';
import { limitText } from '../money/read-amount';
import { hasBidiControls, stripBidiControls } from '../bidi';

/** C0 controls except tab/line breaks, DEL and C1 controls: never part of a stored text. */
// eslint-disable-next-line no-control-regex -- control characters are what this pattern finds
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex -- control characters are what this pattern finds
const CONTROL_ALL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

export function hasControlCharacters(text: string): boolean {
  return CONTROL.test(text);
}

/** Text safe to show back (a skipped line's text): control characters as U+FFFD. */
export function visibleText(text: string, max = 200): string {
  const cut = text.slice(0, max);
  return CONTROL.test(cut) ? cut.replace(CONTROL_ALL, '\ufffd') : cut;
}

/** Lines listed in one warning at most; the rest are counted. */
const LISTED = 10;

export function lineList(lines: readonly number[]): string {
  const shown = lines.slice(0, LISTED).join(', ');
  return lines.length > LISTED ? `${shown} and ${lines.length - LISTED} more` : shown;
}

const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

/** Collapses whitespace runs (tabs, line breaks) to single spaces and trims. */
export function squashSpaces(text: string): string {
  return /\s\s|[\t\n\r\v\f]|^\s|\s$/.test(text) ? text.replace(/\s+/g, ' ').trim() : text;
}

export interface FinishedRows {
  rows: CsvRow[];
  skipped: SkippedLine[];
  warnings: string[];
}

/**
 * The same checks one row at a time, for readers that stream their rows: `add` answers the row
 * as it is to be stored, null when it is skipped, or the failure that ends the read; `warnings`
 * sums up once every row was added.
 */
export class RowFinisher {
  readonly skipped: SkippedLine[] = [];
  private readonly controlLines: number[] = [];
  private readonly bidiLines: number[] = [];
  /** Bidirectional controls taken out of those lines. */
  private bidiRemoved = 0;
  private readonly shortened: number[] = [];
  private readonly currencies = new Map<string, number>();
  /** Rows answered (not skipped) so far. */
  count = 0;

  /** `account`: the account's currency and its decimals, when the rows go into one. */
  constructor(private readonly account: { currency?: string; fractionDigits?: number } = {}) {}

  add(row: CsvRow, lineText: () => string): CsvRow | null | CsvReadFailure {
    if (Math.abs(row.amount) > MAX_AMOUNT_CENTS || !Number.isSafeInteger(row.amount)) {
      return fail(
        'BAD_AMOUNT',
        `Line ${row.line}: the amount is larger than the largest amount allowed (${limitText(MAX_AMOUNT_CENTS, this.account.fractionDigits)}).`,
        {
          line: row.line,
        },
      );
    }
    if (
      CONTROL.test(row.description) ||
      (row.category !== null && CONTROL.test(row.category)) ||
      (row.fitid && CONTROL.test(row.fitid))
    ) {
      this.controlLines.push(row.line);
      this.skipped.push({ line: row.line, text: visibleText(lineText()), reason: 'contains control characters' });
      return null;
    }
    let description = row.description;
    let rawCategory = row.category;
    if (hasBidiControls(description) || (rawCategory !== null && hasBidiControls(rawCategory))) {
      this.bidiLines.push(row.line);
      const stripped = stripBidiControls(description);
      description = squashSpaces(stripped.text);
      this.bidiRemoved += stripped.removed;
      if (rawCategory !== null) {
        const category = stripBidiControls(rawCategory);
        rawCategory = category.text;
        this.bidiRemoved += category.removed;
      }
    }
    if (description.length > DESCRIPTION_MAX_LENGTH) {
      description = description.slice(0, DESCRIPTION_MAX_LENGTH).trimEnd();
      this.shortened.push(row.line);
    }
    const category = rawCategory ? rawCategory.slice(0, 255).trim() || null : null;
    if (row.currency) this.currencies.set(row.currency, (this.currencies.get(row.currency) ?? 0) + 1);
    this.count += 1;
    return description === row.description && category === row.category ? row : { ...row, description, category };
  }

  warnings(): string[] {
    const warnings: string[] = [];
    const { controlLines, bidiLines, shortened, currencies } = this;
    if (bidiLines.length > 0) {
      const removed = plural(this.bidiRemoved, 'bidirectional override character');
      warnings.push(
        `${removed} (which can make a text read in a misleading order) ${this.bidiRemoved === 1 ? 'was' : 'were'} removed from ${plural(bidiLines.length, 'line')}: line ${lineList(bidiLines)}.`,
      );
    }
    if (controlLines.length > 0) {
      warnings.push(
        `${plural(controlLines.length, 'line')} ${controlLines.length === 1 ? 'contains' : 'contain'} control characters (such as NUL) and ${controlLines.length === 1 ? 'was' : 'were'} skipped: line ${lineList(controlLines)}.`,
      );
    }
    if (shortened.length > 0) {
      warnings.push(
        `${plural(shortened.length, 'description')} longer than ${DESCRIPTION_MAX_LENGTH} characters ${shortened.length === 1 ? 'was' : 'were'} shortened: line ${lineList(shortened)}.`,
      );
    }
    const home = this.account.currency;
    const other = home ? [...currencies].filter(([code]) => code !== home) : [];
    if (home && other.length > 0) {
      const n = other.reduce((sum, [, count]) => sum + count, 0);
      const codes = other.map(([code]) => code).sort();
      const list = codes.length === 1 ? codes[0] : `${codes.slice(0, -1).join(', ')} or ${codes.at(-1)}`;
      warnings.push(
        `${plural(n, 'row')} ${n === 1 ? 'is' : 'are'} in ${list}, but this account is in ${home}: ${n === 1 ? 'its amount is' : 'their amounts are'} imported as ${home}, not converted. Import a file into an account of its own currency.`,
      );
    } else if (currencies.size > 1) {
      const parts = [...currencies]
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .map(([code, n]) => `${code} (${plural(n, 'row')})`);
      warnings.push(
        `This file mixes ${currencies.size} currencies: ${parts.join(', ')}. Amounts are imported as they are, without conversion.`,
      );
    }
    return warnings;
  }
}

/**
 * The answer when every row of a file was skipped: which lines, and why, rather than "no
 * transactions"; `fallback` when no line was skipped either.
 */
export function noRowsLeft(skipped: readonly SkippedLine[], fallback: string): CsvReadFailure {
  const rows = skipped.filter((s) => s.reason !== 'before the header');
  if (rows.length === 0) return fail('NO_ROWS', fallback);
  const named = rows
    .slice(0, 3)
    .map((s) => `line ${s.line} (${s.reason})`)
    .join('; ');
  return fail(
    'NO_ROWS',
    `No transaction could be imported: ${named}${rows.length > 3 ? ` (and ${rows.length - 3} more lines)` : ''}.`,
    { lines: rows.slice(0, LISTED).map((s) => ({ line: s.line, reason: s.reason })) },
  );
}

export function* finishRowsSteps(
  raw: readonly CsvRow[],
  lineTexts: (line: number) => string,
): Steps<FinishedRows | CsvReadFailure> {
  const rows: CsvRow[] = [];
  const finisher = new RowFinisher();
  for (let i = 0; i < raw.length; i += 1) {
    if (i > 0 && i % RECORDS_PER_STEP === 0) yield;
    const row = must(raw[i], 'i < raw.length');
    const finished = finisher.add(row, () => lineTexts(row.line));
    if (finished === null) continue;
    if ('ok' in finished) return finished;
    rows.push(finished);
  }
  return { rows, skipped: finisher.skipped, warnings: finisher.warnings() };
}

export function finishRows(
  raw: readonly CsvRow[],
  lineTexts: (line: number) => string = () => '',
): FinishedRows | CsvReadFailure {
  return runSteps(finishRowsSteps(raw, lineTexts));
}
