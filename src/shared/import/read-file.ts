/**
 * One entry for every file a person imports: the format is told from the content (never
 * the file name), then CSV, OFX/QFX, QIF or CAMT.053 is read into the same answer, and the
 * rows pass the same checks (control characters, amount and description bounds, currencies).
 */
import { finishRowsSteps } from '../csv/finish';
import { decodeInput, readCsvTextSteps } from '../csv/read-csv';
import { runSteps, runStepsAsync, type Steps } from '../csv/steps';
import { fail, type CsvReadFailure, type CsvReadResult, type ImportFormat, type ReadOptions } from '../csv/types';
import { readCamtSteps } from '../statements/camt';
import { readOfxSteps, type StatementRead } from '../statements/ofx';
import { readQifSteps } from '../statements/qif';

export const FORMAT_NAMES: Record<ImportFormat, string> = { csv: 'CSV', ofx: 'OFX', qif: 'QIF', camt053: 'CAMT.053' };

/** The format of a decoded file, from its first characters. */
export function detectFormat(text: string): ImportFormat | 'xml' {
  const head = text.slice(0, 4096).replace(/^\uFEFF/, '');
  // OFX starts so (a header, a processing instruction, or the OFX element first): a CSV cell
  // that merely mentions <OFX> is not a statement.
  if (/^\s*OFXHEADER\s*:/i.test(head) || /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^[>]*(\[[\s\S]*?\])?\s*>\s*)*(<\?OFX\b|<OFX>)/i.test(head)) return 'ofx';
  if (/^\s*!(Type|Account|Option|Clear)\b/i.test(head)) return 'qif';
  if (/^\s*<(\?xml|[A-Za-z])/.test(head)) {
    if (/camt\.05[23]|<([A-Za-z0-9]+:)?BkToCstmrStmt\b/.test(text.slice(0, 65536))) return 'camt053';
    return 'xml';
  }
  return 'csv';
}

export function readImport(input: Uint8Array | string, options: ReadOptions = {}): CsvReadResult {
  return runSteps(readImportSteps(input, options));
}

export function readImportAsync(input: Uint8Array | string, options: ReadOptions, pause: () => Promise<void>): Promise<CsvReadResult> {
  return runStepsAsync(readImportSteps(input, options), pause);
}

export function* readImportSteps(input: Uint8Array | string, options: ReadOptions): Steps<CsvReadResult> {
  const decoded = yield* decodeInput(input);
  if (!decoded.ok) return decoded;
  const { text, encoding } = decoded;
  if (text.trim() === '') return fail('EMPTY', 'The file is empty.');
  const format = detectFormat(text);
  if (format === 'csv') return yield* readCsvTextSteps(text, encoding, options);
  if (format === 'xml') return fail('NOT_CSV', 'This XML file is neither an OFX nor a CAMT.053 statement.');
  let read: StatementRead | CsvReadFailure;
  if (format === 'ofx') read = yield* readOfxSteps(text);
  else if (format === 'camt053') read = yield* readCamtSteps(text);
  else read = yield* readQifSteps(text, options);
  if ('ok' in read) return read;
  if (read.rows.length === 0) return fail('NO_ROWS', `No transactions were found in this ${FORMAT_NAMES[format]} file.`);
  const finished = yield* finishRowsSteps(read.rows, () => '');
  if ('ok' in finished) return finished;
  if (finished.rows.length === 0) return fail('NO_ROWS', `No transactions were found in this ${FORMAT_NAMES[format]} file.`);
  return {
    ok: true,
    format,
    encoding,
    delimiter: '',
    headerLine: 0,
    headers: [],
    columns: [],
    dateColumn: read.dateColumn,
    dateFormat: read.dateFormat,
    dateFormatCandidates: read.candidates ?? [read.dateFormat],
    rows: finished.rows,
    skipped: finished.skipped,
    warnings: [...read.warnings, ...finished.warnings],
    notes: [`Read as ${FORMAT_NAMES[format]}.`],
    mapping: null,
    usedSavedMapping: false,
  };
}
