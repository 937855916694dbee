import { isIsoDate } from '../../../shared/dates/calendar';
import { rowProblem } from '../../../shared/rates/read-rates';
import type { RateInput } from '../../../shared/schemas/rates';

export interface RateDraft {
  date: string;
  base: string;
  quote: string;
  rate: string;
}

export type RateDraftErrors = Partial<Record<keyof RateDraft, string>>;

/** Reads the rate form with the same rule the server applies to a rates file's rows. */
export function readRateForm(
  draft: RateDraft,
): { ok: true; value: RateInput } | { ok: false; errors: RateDraftErrors } {
  const rate = draft.rate.trim();
  if (!isIsoDate(draft.date)) return { ok: false, errors: { date: 'Enter the date of the rate' } };
  if (draft.base === draft.quote) return { ok: false, errors: { quote: 'Choose a currency other than the base' } };
  if (!rate) return { ok: false, errors: { rate: 'Enter the rate, such as 0.8555' } };
  const problem = rowProblem(draft.date, draft.base, draft.quote, rate);
  if (problem) return { ok: false, errors: { rate: `${problem[0]?.toUpperCase() ?? ''}${problem.slice(1)}` } };
  return { ok: true, value: { date: draft.date, base: draft.base, quote: draft.quote, rate } };
}
