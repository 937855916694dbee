import { z } from 'zod';
import { isIsoDate } from '../dates/calendar';

/** A calendar date `YYYY-MM-DD` that exists (2024-02-30 is refused). */
export const isoDateSchema = z
  .string({ error: 'must be a date in YYYY-MM-DD format' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date in YYYY-MM-DD format')
  .refine((value) => isIsoDate(value), 'is not a real calendar date');

/** Integer cents within the exactly representable range (|n| <= 2^53 - 1). */
export const centsSchema = z
  .number({ error: 'must be a number of cents' })
  .refine((value) => Number.isSafeInteger(value), 'must be a whole number of cents between -9007199254740991 and 9007199254740991');

export const idSchema = z.coerce
  .number({ error: 'must be a positive whole number' })
  .int('must be a positive whole number')
  .positive('must be a positive whole number')
  .max(Number.MAX_SAFE_INTEGER, 'is too large');

export const idParamsSchema = z.object({ id: idSchema });

/** A short required text: trimmed, 1..max characters. */
export function requiredText(label: string, max = 255) {
  return z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);
}
