import { presetOf } from '../../../shared/dates/presets';
import type { SearchForm } from './searchForm';
import type { ExtraFilters } from './searchParams';

/** At most this many category names are spelled out in the summary; the rest are counted. */
const NAMED_CATEGORIES = 2;

function datesText(form: SearchForm, today: string): string {
  const preset = presetOf(form, today);
  if (preset) return preset;
  return form.startDate === form.endDate ? form.startDate : `${form.startDate} – ${form.endDate}`;
}

function categoriesText(categories: readonly string[]): string | null {
  if (categories.length === 0) return null;
  const named = categories.slice(0, NAMED_CATEGORIES).join(', ');
  const more = categories.length - NAMED_CATEGORIES;
  return more > 0 ? `${named} +${more}` : named;
}

function amountsText(min: string, max: string): string | null {
  if (min && max) return `Amount ${min}–${max}`;
  if (min) return `Amount ≥ ${min}`;
  if (max) return `Amount ≤ ${max}`;
  return null;
}

/**
 * The folded filter form as one line: "This month · Groceries · 191 found". Every filter of the form that narrows
 * the search is named (a long list of categories is counted), so the line says what the rows below are; a link's
 * extra filters (payee, direction) are counted, as their removable chips right below name them.
 */
export function filterSummary(form: SearchForm, extras: ExtraFilters, today: string, found: number | null): string {
  const extraCount = Object.values(extras).filter(Boolean).length;
  const parts = [
    datesText(form, today),
    categoriesText(form.categories),
    form.categorySource === 'suggested' ? 'Suggested' : null,
    form.account || null,
    form.description.trim() ? `“${form.description.trim()}”` : null,
    amountsText(form.minAmount.trim(), form.maxAmount.trim()),
    extraCount > 0 ? `+${extraCount} from the link` : null,
    found === null ? null : `${found} found`,
  ];
  return parts.filter((part): part is string => part !== null).join(' · ');
}
