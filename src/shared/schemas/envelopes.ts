import { z } from 'zod';
import { isoDateSchema, requiredText, text } from './common';
import { dedupeNames } from './budgets';
import type { TransactionDto } from './transactions';

/** The ten envelope colours, in the order the form offers them; Green is the default. */
export const ENVELOPE_COLORS = [
  { name: 'Green', value: '#4CAF50' },
  { name: 'Blue', value: '#2196F3' },
  { name: 'Orange', value: '#FF9800' },
  { name: 'Red', value: '#F44336' },
  { name: 'Purple', value: '#9C27B0' },
  { name: 'Blue Grey', value: '#607D8B' },
  { name: 'Brown', value: '#795548' },
  { name: 'Pink', value: '#E91E63' },
  { name: 'Cyan', value: '#00BCD4' },
  { name: 'Light Green', value: '#8BC34A' },
] as const;
export const DEFAULT_ENVELOPE_COLOR = '#4CAF50';

export const envelopeColorSchema = z
  .string()
  .regex(/^#[0-9A-Fa-f]{6}$/, 'must be a colour like #4CAF50')
  .transform((value) => value.toUpperCase());

const envelopeCategoriesSchema = z
  .array(text({ max: 255 }))
  .max(500)
  .transform((names) => dedupeNames(names))
  .refine((names) => names.length > 0, 'At least one category is required');

// The description is a 3-row box: line breaks and tabs are kept, other control characters refused.
const descriptionSchema = text({ max: 2000, multiline: true })
  .nullable()
  .transform((value) => (value ? value : null))
  .optional();

export const createEnvelopeSchema = z
  .object({
    name: requiredText('Envelope name'),
    description: descriptionSchema,
    categories: envelopeCategoriesSchema,
    color: envelopeColorSchema.default(DEFAULT_ENVELOPE_COLOR),
    isActive: z.boolean().default(true),
  })
  .strict();
export type CreateEnvelopeInput = z.infer<typeof createEnvelopeSchema>;

export const updateEnvelopeSchema = z
  .object({
    name: requiredText('Envelope name').optional(),
    description: descriptionSchema,
    categories: envelopeCategoriesSchema.optional(),
    color: envelopeColorSchema.optional(),
    isActive: z.boolean().optional(),
  })
  .strict();
export type UpdateEnvelopeInput = z.infer<typeof updateEnvelopeSchema>;

export const envelopeRangeSchema = z
  .object({ startDate: isoDateSchema.optional(), endDate: isoDateSchema.optional() })
  .refine((r) => !r.startDate || !r.endDate || r.startDate <= r.endDate, {
    message: 'Start date must not be after end date',
    path: ['endDate'],
  });
export type EnvelopeRange = z.infer<typeof envelopeRangeSchema>;

export interface EnvelopeDto {
  id: number;
  name: string;
  description: string | null;
  categories: string[];
  color: string;
  isActive: boolean;
  transactions: TransactionDto[];
  transactionCount: number;
  /** Sum of the transactions' amounts in minor units of `currency` (negative when money went out). */
  total: number;
  /** The home currency: transactions in other currencies are converted at their date's rate. */
  currency: string;
  /** Transactions in another currency left out of `total`: no rate within 7 days of their date. */
  noRate: number;
}
