import { z } from 'zod';
import type { ImportTransfers } from './transfers';
import type { CategorySource } from './suggest';
import type { ColumnAssignment, ColumnMapping, ImportFormat, SkippedLine } from '../csv';
import { MAX_COLUMNS } from '../csv/tokenize';
import type { CategoryOrigin, RuleActionField } from '../rules';
import type { TransactionType } from './transactions';
import { TRANSACTION_TYPES } from './transactions';
import { text } from './common';
import { ACCOUNT_TYPES } from './accounts';
import { MAX_STATEMENTS_LISTED, type StatementSummary } from '../csv/types';

const flag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'on', 'off', ''])])
  .optional()
  .transform((value) => value === true || value === 'true' || value === '1' || value === 'on');

/** `auto` (the default): money in is credit, money out is debit (charge on credit accounts). */
export const IMPORT_TRANSACTION_TYPES = ['auto', ...TRANSACTION_TYPES] as const;
export type ImportTransactionType = (typeof IMPORT_TRANSACTION_TYPES)[number];

/** The stored type of an imported row under `auto`. */
export function autoTransactionType(amount: number, accountType: string): TransactionType {
  if (amount >= 0) return 'credit';
  return accountType === 'credit' ? 'charge' : 'debit';
}

const columnIndex = z
  .number({ error: 'must be a column index (0 for the first column)' })
  .int('must be a column index (0 for the first column)')
  .min(0, 'must be a column index (0 for the first column)')
  .max(MAX_COLUMNS - 1, `must be below ${MAX_COLUMNS}`);

/** `{"header": true|false, "date": 0, "description": [1, 3], "amount": 2}` or with debit/credit instead of amount. */
export const columnMappingSchema = z
  .object({
    header: z.boolean({ error: 'header must be true or false' }),
    date: columnIndex,
    description: z.array(columnIndex).max(MAX_COLUMNS).default([]),
    amount: columnIndex.optional(),
    debit: columnIndex.optional(),
    credit: columnIndex.optional(),
    category: columnIndex.optional(),
    indicator: columnIndex.optional(),
    currency: columnIndex.optional(),
    originalAmount: columnIndex.optional(),
    originalCurrency: columnIndex.optional(),
    dateFormat: text({ max: 32 }).optional(),
  })
  .strict()
  .refine((m) => m.amount !== undefined || m.debit !== undefined || m.credit !== undefined, {
    message: 'choose an amount column, or debit and credit columns',
  })
  .refine((m) => m.amount === undefined || (m.debit === undefined && m.credit === undefined), {
    message: 'choose either an amount column or debit and credit columns, not both',
  }) satisfies z.ZodType<ColumnMapping>;

/** The multipart field `mapping` is JSON text; tRPC sends the object itself. */
const mappingField = z
  .union([z.string().max(4096), columnMappingSchema])
  .optional()
  .transform((value, ctx): ColumnMapping | undefined => {
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string') return value;
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      ctx.addIssue({
        code: 'custom',
        message: 'must be JSON such as {"header": true, "date": 0, "description": [1], "amount": 2}',
      });
      return z.NEVER;
    }
    const result = columnMappingSchema.safeParse(parsed);
    if (!result.success) {
      for (const issue of result.error.issues)
        ctx.addIssue({
          code: 'custom',
          message: `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`,
        });
      return z.NEVER;
    }
    return result.data;
  });

/** Where one statement of a file of several accounts goes: an account (created when new, of `type`), or nowhere (`account: null`). */
export const statementRouteSchema = z
  .object({
    statement: z.number().int().min(0).max(100_000),
    account: text({ label: 'account', min: 1, max: 255 }).nullable(),
    type: z.enum(ACCOUNT_TYPES).optional(),
  })
  .strict();
export type StatementRoute = z.infer<typeof statementRouteSchema>;

const statementRoutesSchema = z.array(statementRouteSchema).max(MAX_STATEMENTS_LISTED);

/** The multipart field `statements` is JSON text; tRPC sends the list itself. */
const statementsField = z
  .union([z.string().max(64 * 1024), statementRoutesSchema])
  .optional()
  .transform((value, ctx): StatementRoute[] | undefined => {
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string') return value;
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be JSON such as [{"statement": 0, "account": "Savings"}]' });
      return z.NEVER;
    }
    const result = statementRoutesSchema.safeParse(parsed);
    if (!result.success) {
      for (const issue of result.error.issues)
        ctx.addIssue({ code: 'custom', message: `${issue.path.join('.')}: ${issue.message}` });
      return z.NEVER;
    }
    return result.data;
  });

/** The non-file fields of POST /api/upload (multipart) and of tRPC imports.upload. */
export const importFieldsSchema = z.object({
  account: text({ label: 'account', min: 1, max: 255 }),
  transactionType: z
    .enum(IMPORT_TRANSACTION_TYPES, { error: `must be one of ${IMPORT_TRANSACTION_TYPES.join(', ')}` })
    .default('auto'),
  dateFormat: text({ max: 32 })
    .optional()
    .transform((value) => value || undefined),
  flipAmounts: flag,
  dryRun: flag,
  mapping: mappingField,
  statements: statementsField,
});
export type ImportFields = z.infer<typeof importFieldsSchema>;

/** Field names POST /api/upload takes besides `file`. */
export const IMPORT_FIELD_NAMES = Object.keys(importFieldsSchema.shape);

export interface ImportedRowPreview {
  line: number;
  postDate: string;
  description: string;
  amount: number;
  category: string | null;
  /** Where the row's category will come from: bank (the file), rule, suggested (learned); null when none. */
  categorySource: CategorySource | null;
  /** Why a suggested category was chosen (the learner's reason). */
  categoryReason?: string;
  currency?: string | null;
  /** The type the row will be stored with. */
  type: TransactionType;
  duplicate: boolean;
  /** The description as the file has it (differs from `description` when a rule renames the row). */
  bankDescription: string;
  /** Where the category came from: the bank's file, a rule, or none. */
  categoryOrigin: CategoryOrigin;
  /** The rule that set the category, and its name. */
  ruleId: number | null;
  ruleName: string | null;
  /** The rule that set each field (category, type, description), when one did. */
  ruleIds: Partial<Record<RuleActionField, number>>;
}

/** Something a person must see before importing, shown prominently (also the first warnings). */
export interface ImportAttention {
  /** MOSTLY_MONEY_IN: most rows would be money in for a checking or credit account; ROWS_SKIPPED: lines under the header were not imported. */
  code: 'MOSTLY_MONEY_IN' | 'ROWS_SKIPPED';
  message: string;
  /** Flipping the signs would answer it. */
  offerFlip: boolean;
}

export interface ImportResult {
  message: string;
  batchId: string | null;
  imported: number;
  duplicates: number;
  skipped: number;
  warnings: string[];
  /** What a person must see (a dry run says it before the import). */
  attention?: ImportAttention[];
  /** A file of several accounts split between accounts: one batch per account. */
  batches?: { account: string; batchId: string | null; imported: number; duplicates: number }[];
  /** Transfers found between the new rows and the other accounts: linked at once, or offered to confirm. */
  transfers?: ImportTransfers;
}

export interface ImportPreview extends ImportResult {
  dryRun: true;
  fileName: string | null;
  format: ImportFormat;
  encoding: string;
  delimiter: string;
  headerLine: number;
  headers: string[];
  columns: ColumnAssignment[];
  /** The column (or statement field) dates were read from. */
  dateColumn: string;
  dateFormat: string;
  dateFormatCandidates: string[];
  /** How the file was read, in sentences. */
  notes: string[];
  /** True when the account's saved mapping (import profile) was used. */
  usedSavedMapping: boolean;
  /** The mapping the file was read with (given or saved), else null. */
  mapping: ColumnMapping | null;
  /** The first rows of the table when a mapping was used (to change it). */
  sample?: string[][];
  /** Every row the file holds (duplicates included). */
  totalRows: number;
  /** The first 100 rows, then up to 100 later duplicates: a preview, not the whole file. */
  rows: ImportedRowPreview[];
  /** The first skipped lines (up to 100); `skipped` counts them all. */
  skippedLines: SkippedLine[];
  /** A statement file of several accounts: each account's statement, to send each where it belongs. */
  statements?: StatementSummary[];
}

/** An account's saved column mapping (GET/PUT /api/accounts/{id}/import-profile). */
export interface ImportProfileDto {
  accountId: number;
  mapping: ColumnMapping;
  /** Columns of the table the mapping was made for; a file of another shape is read without it. */
  columnCount: number;
  /** The header cells when the mapping has `header: true`. */
  headers: string[];
  updatedAt: string;
}

export const importProfileInputSchema = z
  .object({
    mapping: columnMappingSchema,
    columnCount: z.number().int().min(1).max(MAX_COLUMNS),
    headers: z
      .array(text({ max: 255, trim: false }))
      .max(MAX_COLUMNS)
      .default([]),
  })
  .strict()
  .refine(
    (p) =>
      Math.max(
        p.mapping.date,
        p.mapping.amount ?? 0,
        p.mapping.debit ?? 0,
        p.mapping.credit ?? 0,
        p.mapping.category ?? 0,
        p.mapping.indicator ?? 0,
        p.mapping.currency ?? 0,
        p.mapping.originalAmount ?? 0,
        p.mapping.originalCurrency ?? 0,
        ...p.mapping.description,
      ) < p.columnCount,
    {
      message: 'mapping: every column index must be below columnCount',
      path: ['mapping'],
    },
  );
export type ImportProfileInput = z.infer<typeof importProfileInputSchema>;
