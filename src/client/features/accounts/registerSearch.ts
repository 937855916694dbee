import { z } from 'zod';
import { reportPresetRange } from '../../../shared/reports';
import { isoDateSchema } from '../../../shared/schemas/common';

export const REGISTER_RANGES = ['Last 12 months', 'This year', 'Last year', 'All', 'Custom'] as const;
export type RegisterRangeName = (typeof REGISTER_RANGES)[number];

/** The register's search params: its date range survives a reload or a shared link. */
export const registerSearchSchema = z.object({
  range: z.enum(REGISTER_RANGES).optional().catch(undefined),
  startDate: isoDateSchema.optional().catch(undefined),
  endDate: isoDateSchema.optional().catch(undefined),
  /** How far ahead the scheduled occurrences beside the register reach (days). */
  ahead: z
    .union([z.literal(30), z.literal(90)])
    .optional()
    .catch(undefined),
});
export type RegisterSearch = z.infer<typeof registerSearchSchema>;

/** The dates the register lists: a named range for today, the whole history ('All'), or the custom dates (either may be open). */
export function resolveRegisterRange(
  search: RegisterSearch,
  today: string,
): { range: RegisterRangeName; startDate?: string; endDate?: string } {
  const range = search.range ?? 'Last 12 months';
  if (range === 'All') return { range };
  if (range === 'Custom') return { range, startDate: search.startDate, endDate: search.endDate };
  const dates = reportPresetRange(range, today);
  if (!dates) throw new Error(`Invariant broken: the register range ${range} is a report preset`);
  return { range, ...dates };
}
