import { z } from 'zod';
import { DESCRIPTION_MAX_LENGTH, MAX_FILTER_CATEGORIES, NAME_MAX_LENGTH } from '../../../shared/limits';
import { centsToDecimalString } from '../../../shared/money';
import { isoDateSchema } from '../../../shared/schemas/common';
import type { TransactionFilters } from '../../../shared/schemas/transactions';
import { EMPTY_FORM, initialForm, type SearchForm } from './searchForm';

/**
 * The Transactions screen's URL (`/transactions?startDate&endDate&categories&account&description&
 * minAmount&maxAmount&categorySource&payee&direction&counted&filters`): the submitted search, so a reload, Back
 * or a shared link (a report's bar or payee too) opens the screen on exactly that search. `filters=open` keeps
 * the filter form open: once a search has run it folds into one summary line, and Back returns to it folded. Each param is
 * checked on its own; one that does not read is dropped rather than refusing the page. No dates at all
 * is a first visit (this month); empty dates (`?startDate=&endDate=`) are a cleared form. Amounts stay
 * as typed (read in the browser's locale when searching).
 */
const dateParam = z
  .union([z.literal(''), isoDateSchema])
  .optional()
  .catch(undefined);
const textParam = z.string().max(NAME_MAX_LENGTH).optional().catch(undefined);
export const transactionSearchSchema = z.object({
  startDate: dateParam,
  endDate: dateParam,
  categories: z.array(z.string().min(1).max(NAME_MAX_LENGTH)).max(MAX_FILTER_CATEGORIES).optional().catch(undefined),
  account: textParam,
  description: textParam,
  minAmount: z.string().max(64).optional().catch(undefined),
  maxAmount: z.string().max(64).optional().catch(undefined),
  categorySource: z.literal('suggested').optional().catch(undefined),
  payee: z.string().min(1).max(DESCRIPTION_MAX_LENGTH).optional().catch(undefined),
  direction: z.enum(['in', 'out']).optional().catch(undefined),
  counted: z.boolean().optional().catch(undefined),
  filters: z.literal('open').optional().catch(undefined),
});
export type TransactionSearch = z.infer<typeof transactionSearchSchema>;

/** The filters a link carries beyond the form's fields (a report's figure needs them). */
export type ExtraFilters = Pick<TransactionFilters, 'payee' | 'direction' | 'counted'>;

/** Search params -> the search the screen shows: the form's fields and the link's extra filters. */
export function readTransactionSearch(raw: unknown, today: string): { form: SearchForm; extras: ExtraFilters } {
  const search = transactionSearchSchema.parse(raw ?? {});
  const base = search.startDate === undefined && search.endDate === undefined ? initialForm(today) : EMPTY_FORM;
  const form: SearchForm = {
    startDate: search.startDate ?? base.startDate,
    endDate: search.endDate ?? base.endDate,
    categories: search.categories ?? [],
    account: search.account ?? '',
    description: search.description ?? '',
    minAmount: search.minAmount ?? '',
    maxAmount: search.maxAmount ?? '',
    categorySource: search.categorySource ?? '',
  };
  const extras: ExtraFilters = {};
  if (search.payee) extras.payee = search.payee;
  if (search.direction) extras.direction = search.direction;
  if (search.counted) extras.counted = true;
  return { form, extras };
}

/** The search params of a form and extra filters: none at all for a first visit's search (this month, nothing else). */
export function searchOfForm(form: SearchForm, extras: ExtraFilters, today: string): TransactionSearch {
  const search: TransactionSearch = {};
  if (!sameForm(form, initialForm(today))) {
    search.startDate = form.startDate;
    search.endDate = form.endDate;
  }
  if (form.categories.length > 0) search.categories = [...form.categories];
  if (form.account) search.account = form.account;
  if (form.description) search.description = form.description;
  if (form.minAmount) search.minAmount = form.minAmount;
  if (form.maxAmount) search.maxAmount = form.maxAmount;
  if (form.categorySource === 'suggested') search.categorySource = 'suggested';
  if (extras.payee) search.payee = extras.payee;
  if (extras.direction) search.direction = extras.direction;
  if (extras.counted) search.counted = true;
  return search;
}

export function sameForm(a: SearchForm, b: SearchForm): boolean {
  return (
    a.startDate === b.startDate &&
    a.endDate === b.endDate &&
    a.account === b.account &&
    a.description === b.description &&
    a.minAmount === b.minAmount &&
    a.maxAmount === b.maxAmount &&
    a.categorySource === b.categorySource &&
    a.categories.length === b.categories.length &&
    a.categories.every((c, i) => c === b.categories[i])
  );
}

/** Search filters -> the search params of a link to exactly those rows. */
export function transactionSearchOf(filters: TransactionFilters): TransactionSearch {
  const search: TransactionSearch = { startDate: filters.startDate, endDate: filters.endDate };
  if (filters.categories?.length) search.categories = [...filters.categories];
  if (filters.account) search.account = filters.account;
  if (filters.description) search.description = filters.description;
  if (filters.categorySource === 'suggested') search.categorySource = 'suggested';
  if (filters.payee) search.payee = filters.payee;
  if (filters.direction) search.direction = filters.direction;
  if (filters.counted) search.counted = true;
  return search;
}

/** What the extra filters mean, one label each (shown as removable chips). */
export function extraFilterLabels(extras: ExtraFilters): { key: keyof ExtraFilters; label: string }[] {
  const labels: { key: keyof ExtraFilters; label: string }[] = [];
  if (extras.payee) labels.push({ key: 'payee', label: `Payee: ${extras.payee}` });
  if (extras.direction)
    labels.push({ key: 'direction', label: extras.direction === 'in' ? 'Money in only' : 'Money out only' });
  if (extras.counted) labels.push({ key: 'counted', label: 'Split parents left out (as report totals count)' });
  return labels;
}

/** GET /api/transactions/export.csv for these filters (wire names; amounts as decimals), without a token. */
export function exportCsvPath(filters: TransactionFilters): string {
  const query = new URLSearchParams({ start_date: filters.startDate, end_date: filters.endDate });
  if (filters.categories?.length) query.set('categories', filters.categories.join(','));
  if (filters.account) query.set('account', filters.account);
  if (filters.description) query.set('description', filters.description);
  if (filters.minAmount !== undefined) query.set('min_amount', centsToDecimalString(filters.minAmount));
  if (filters.maxAmount !== undefined) query.set('max_amount', centsToDecimalString(filters.maxAmount));
  if (filters.payee) query.set('payee', filters.payee);
  if (filters.direction) query.set('direction', filters.direction);
  if (filters.counted) query.set('counted', 'true');
  return `/api/transactions/export.csv?${query.toString()}`;
}
