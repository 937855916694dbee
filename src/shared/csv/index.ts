export { readCsv, readCsvAsync, type CsvReadResult, type CsvReadSuccess, type CsvReadFailure, type CsvRow, type ReadOptions, type SkippedLine, type CsvErrorCode } from './read-csv';
export { normalizeDescription, dedupeKey, markDuplicates, markDuplicatesSteps } from './dedupe';
export { parseAmountCell } from './amounts';
export { DATE_FORMATS, findDateFormat, parseDateWith, dateFormatCandidates } from './dates';
export { assignColumns, normalizeHeader, type ColumnAssignment, type ColumnRole } from './columns';
export { decodeCsvBytes } from './encoding';
export { tokenize, detectDelimiter } from './tokenize';
export { runSteps, runStepsAsync, type Steps } from './steps';
