import { z } from 'zod';
import type { CategoryTarget } from './categories';
import { monthSchema } from './categories';
import { centsSchema, text } from './common';

/** A category named by its id or by its name (any letter case). */
export const categoryRefSchema = z.union(
  [
    z.number().int('must be a category id or name').positive('must be a category id or name'),
    text({ max: 255, min: 1, label: 'category' }),
  ],
  { error: 'must be a category id or name' },
);
export type CategoryRef = z.infer<typeof categoryRefSchema>;

export const planMonthParamsSchema = z.object({ month: monthSchema });

export const setAssignedSchema = z.object({ category: categoryRefSchema, amount: centsSchema }).strict();
export type SetAssignedInput = z.infer<typeof setAssignedSchema>;

const positiveCents = centsSchema.refine((value) => value > 0, 'must be more than zero');

export const moveMoneySchema = z
  .object({ from: categoryRefSchema.nullable(), to: categoryRefSchema.nullable(), amount: positiveCents })
  .strict();
export type MoveMoneyInput = z.infer<typeof moveMoneySchema>;

export const holdSchema = z
  .object({ amount: centsSchema.refine((value) => value >= 0, 'must be zero or more') })
  .strict();
export type HoldInput = z.infer<typeof holdSchema>;

export const FILL_MODES = ['lastMonth', 'average3', 'average6', 'average12', 'targets', 'zero'] as const;
export type FillMode = (typeof FILL_MODES)[number];

export const fillSchema = z
  .object({
    mode: z.enum(FILL_MODES, { error: `must be one of ${FILL_MODES.join(', ')}` }),
    categories: z.array(categoryRefSchema).max(1000, 'at most 1,000 categories').optional(),
  })
  .strict();
export type FillInput = z.infer<typeof fillSchema>;

/** One expense category's month in the plan. */
export interface PlanCategoryDto {
  category: number;
  name: string;
  /** The envelope it is shown under (the first by name holding it), or null ("Other"). */
  envelope: string | null;
  hidden: boolean;
  assigned: number;
  activity: number;
  carryover: number;
  available: number;
  rollsOverspending: boolean;
  target: CategoryTarget | null;
  /** What its target still needs this month (0 when met or without one). */
  needed: number;
}

export interface PlanMoveDto {
  id: number;
  date: string;
  from: number | null;
  to: number | null;
  amount: number;
}

export interface PlanDto {
  month: string;
  /** The home currency: every figure is in it, other accounts' rows converted at their own date's rate. */
  currency: string;
  /** Rows up to the month's end left out of the figures: another currency with no rate within 7 days of their date. */
  noRate: number;
  toAssign: number;
  income: number;
  fromLastMonth: number;
  overspentLastMonth: number;
  overspentFrom: { category: number; name: string; amount: number }[];
  assigned: number;
  activity: number;
  available: number;
  held: number;
  /** Most To Assign can hold this month (zero when it has nothing). */
  holdable: number;
  categories: PlanCategoryDto[];
  incomeCategories: { category: number; name: string; activity: number }[];
  /** Uncategorised counted on-plan transactions up to the month's end. */
  uncategorized: { count: number; amount: number };
  /** The month's moves, oldest first. */
  moves: PlanMoveDto[];
}
