export { readCsv, readCsvAsync, readCsvSteps, decodeInput } from './read-csv';
export type {
  CsvReadResult,
  CsvReadSuccess,
  CsvReadFailure,
  CsvRow,
  ReadOptions,
  SkippedLine,
  CsvErrorCode,
  ColumnMapping,
  SavedMapping,
  ImportFormat,
  CsvReadHead,
  CsvReadStream,
  RowChunks,
  RowsEnd,
} from './types';
export {
  normalizeDescription,
  dedupeKey,
  markDuplicates,
  markDuplicatesSteps,
  DuplicateMarker,
  RowCounts,
  type StoredRows,
} from './dedupe';
export { DATE_FORMATS, findDateFormat, parseDateWith, dateFormatCandidates, chooseDateFormat } from './dates';
export { assignColumns, normalizeHeader, type ColumnAssignment, type ColumnRole } from './columns';
export { joinDescription, DESCRIPTION_SEPARATOR } from './describe';
export { decodeCsvBytes } from './encoding';
export { tokenize, detectDelimiter, MAX_COLUMNS, MAX_RECORD_CHARS } from './tokenize';
export { runSteps, runStepsAsync, slicedPause, type Steps } from './steps';
