import { z } from 'zod';
import {
  DEFAULT_PAYEE_LIMIT,
  MAX_PAYEE_LIMIT,
  MAX_REPORT_MONTHS,
  monthCount,
  type MonthlyReportRow,
  type PayeeTotal,
} from '../reports';
import { NAME_MAX_LENGTH } from '../limits';
import { isoDateSchema, text } from './common';

export type { MonthlyReportRow, PayeeTotal };

const rangeShape = {
  startDate: isoDateSchema,
  endDate: isoDateSchema,
  /** An account name (case-insensitive); all accounts when absent. */
  account: text({ min: 1, max: NAME_MAX_LENGTH }).optional(),
};

type Range = { startDate: string; endDate: string };
const inOrder = (r: Range) => r.startDate <= r.endDate;
const inOrderMessage = { message: 'Start date must not be after end date', path: ['endDate'] };
const notTooLong = (r: Range) => r.startDate > r.endDate || monthCount(r.startDate, r.endDate) <= MAX_REPORT_MONTHS;
const notTooLongMessage = { message: `A report covers at most ${MAX_REPORT_MONTHS} months`, path: ['endDate'] };

/** GET /api/reports/monthly, tRPC reports.monthly. */
export const monthlyReportInputSchema = z
  .object(rangeShape)
  .strict()
  .refine(inOrder, inOrderMessage)
  .refine(notTooLong, notTooLongMessage);
export type MonthlyReportInput = z.infer<typeof monthlyReportInputSchema>;

/** GET /api/reports/payees, tRPC reports.payees. */
export const payeeReportInputSchema = z
  .object({
    ...rangeShape,
    limit: z
      .number({ error: 'must be a whole number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(MAX_PAYEE_LIMIT, `must be at most ${MAX_PAYEE_LIMIT}`)
      .default(DEFAULT_PAYEE_LIMIT),
  })
  .strict()
  .refine(inOrder, inOrderMessage);
export type PayeeReportInput = z.infer<typeof payeeReportInputSchema>;
