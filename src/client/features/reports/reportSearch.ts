import { z } from 'zod';
import { REPORT_PRESETS, reportPresetRange, type ReportPreset } from '../../../shared/reports';
import { NAME_MAX_LENGTH } from '../../../shared/limits';
import { isoDateSchema } from '../../../shared/schemas/common';

/** The Reports screen's search params: the range, the account and the table view survive a reload or a shared link. */
export const reportSearchSchema = z.object({
  preset: z.enum(REPORT_PRESETS).optional().catch(undefined),
  startDate: isoDateSchema.optional().catch(undefined),
  endDate: isoDateSchema.optional().catch(undefined),
  account: z.string().min(1).max(NAME_MAX_LENGTH).optional().catch(undefined),
  table: z.boolean().optional().catch(undefined),
});
export type ReportSearch = z.infer<typeof reportSearchSchema>;

export const DEFAULT_REPORT_PRESET: ReportPreset = 'Last 12 months';

export interface ResolvedReportSearch {
  preset: ReportPreset;
  startDate: string;
  endDate: string;
  account?: string;
  table: boolean;
  /** Why a custom range cannot be reported on (dates missing or out of order), or null. */
  problem: string | null;
}

/** The range the screen reports on: a preset's for today, or the custom dates as typed. */
export function resolveReportSearch(search: ReportSearch, today: string): ResolvedReportSearch {
  const preset = search.preset ?? DEFAULT_REPORT_PRESET;
  const table = search.table === true;
  const account = search.account;
  const range = reportPresetRange(preset, today);
  if (range) return { preset, ...range, account, table, problem: null };
  const startDate = search.startDate ?? '';
  const endDate = search.endDate ?? '';
  let problem: string | null = null;
  if (!startDate || !endDate) problem = 'Choose a start and an end date';
  else if (startDate > endDate) problem = 'End Date must not be before Start Date';
  return { preset, startDate, endDate, account, table, problem };
}
