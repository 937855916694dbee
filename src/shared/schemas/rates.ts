import { z } from 'zod';
import { rowProblem } from '../rates/read-rates';
import { currencySchema, isoDateSchema } from './common';

/** GET /api/rates: the rate that converts `base` into `quote` on `date` (default today). */
export const rateQuerySchema = z
  .object({ base: currencySchema, quote: currencySchema, date: isoDateSchema.optional() })
  .strict();
export type RateQuery = z.infer<typeof rateQuerySchema>;

/** One rate by hand: one `base` is `rate` units of `quote` on `date`. */
export const rateInputSchema = z
  .object({
    date: isoDateSchema,
    base: currencySchema,
    quote: currencySchema,
    rate: z
      .union([z.string(), z.number()], { error: 'must be a positive decimal number such as 1.0856' })
      .transform((value) => String(value).trim()),
  })
  .strict()
  .superRefine((v, ctx) => {
    const problem = rowProblem(v.date, v.base, v.quote, v.rate);
    if (problem)
      ctx.addIssue({ code: 'custom', message: problem, path: [problem.includes('rate') ? 'rate' : 'quote'] });
  });
export type RateInput = z.infer<typeof rateInputSchema>;

export const rateKeySchema = z.object({ base: currencySchema, quote: currencySchema, date: isoDateSchema }).strict();
export type RateKey = z.infer<typeof rateKeySchema>;

/** A rates file's text (tRPC; REST takes it as a multipart file). */
export const rateFileSchema = z.object({ text: z.string().min(1, 'The file is empty').max(20_000_000) }).strict();

export const rateAnswerSchema = z.object({
  base: z.string(),
  quote: z.string(),
  date: z.string().describe('The day asked for'),
  rateDate: z.string().describe('The date of the stored rates used: the latest on or before `date`, within 7 days'),
  rate: z.string().describe('Units of quote for one unit of base, as decimal text (cross rates to 10 decimals)'),
  via: z.string().nullable().describe('The base the rate was crossed through (EUR for ECB rates), or null'),
});
export type RateAnswer = z.infer<typeof rateAnswerSchema>;

export const ratePairSchema = z.object({
  base: z.string(),
  quote: z.string(),
  count: z.number().int(),
  firstDate: z.string(),
  lastDate: z.string(),
  lastRate: z.string(),
});
export type RatePair = z.infer<typeof ratePairSchema>;

export const rateImportAnswerSchema = z.object({
  message: z.string(),
  format: z.enum(['ecb-csv', 'ecb-xml', 'csv']),
  imported: z.number().int(),
  firstDate: z.string(),
  lastDate: z.string(),
  currencies: z.array(z.string()),
  ignoredCurrencies: z.array(z.string()).describe('Columns of codes ISO 4217 no longer lists (left out)'),
  skipped: z.number().int(),
});
export type RateImportAnswer = z.infer<typeof rateImportAnswerSchema>;
