import { z } from 'zod';
import type { ColumnAssignment, SkippedLine } from '../csv';
import { text } from './common';
import { transactionTypeSchema } from './transactions';

const flag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'on', 'off', ''])])
  .optional()
  .transform((value) => value === true || value === 'true' || value === '1' || value === 'on');

/** The non-file fields of POST /api/upload (multipart) and of tRPC imports.upload. */
export const importFieldsSchema = z.object({
  account: text({ label: 'account', min: 1, max: 255 }),
  transactionType: transactionTypeSchema,
  dateFormat: text({ max: 32 })
    .optional()
    .transform((value) => value || undefined),
  flipAmounts: flag,
  dryRun: flag,
});
export type ImportFields = z.infer<typeof importFieldsSchema>;

export interface ImportedRowPreview {
  line: number;
  postDate: string;
  description: string;
  amount: number;
  category: string | null;
  duplicate: boolean;
}

export interface ImportResult {
  message: string;
  batchId: string | null;
  imported: number;
  duplicates: number;
  skipped: number;
  warnings: string[];
}

export interface ImportPreview extends ImportResult {
  dryRun: true;
  fileName: string | null;
  encoding: string;
  delimiter: string;
  headerLine: number;
  headers: string[];
  columns: ColumnAssignment[];
  dateFormat: string;
  dateFormatCandidates: string[];
  /** Every row the file holds (duplicates included). */
  totalRows: number;
  /** The first 100 rows, then up to 100 later duplicates: a preview, not the whole file. */
  rows: ImportedRowPreview[];
  skippedLines: SkippedLine[];
}
