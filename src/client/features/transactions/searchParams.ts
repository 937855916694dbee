import { z } from 'zod';
import { centsToDecimalString } from '../../../shared/money';
import { isoDateSchema } from '../../../shared/schemas/common';
import type { TransactionFilters } from '../../../shared/schemas/transactions';
import { EMPTY_FORM, type SearchForm } from './searchForm';

/**
 * The Transactions screen's search params: a link (from a report's bar or payee, or shared)
 * opens the screen on exactly these filters. Each param is checked on its own; one that does
 * not read is dropped rather than refusing the page.
 */
export const transactionSearchSchema = z.object({
  startDate: isoDateSchema.optional().catch(undefined),
  endDate: isoDateSchema.optional().catch(undefined),
  categories: z.array(z.string().min(1).max(255)).max(500).optional().catch(undefined),
  account: z.string().max(255).optional().catch(undefined),
  description: z.string().max(255).optional().catch(undefined),
  payee: z.string().min(1).max(1000).optional().catch(undefined),
  direction: z.enum(['in', 'out']).optional().catch(undefined),
  counted: z.boolean().optional().catch(undefined),
});
export type TransactionSearch = z.infer<typeof transactionSearchSchema>;

/** The filters a link carries beyond the form's fields (a report's figure needs them). */
export type ExtraFilters = Pick<TransactionFilters, 'payee' | 'direction' | 'counted'>;

/** Search params -> the search screen's starting point; null when the link has no full date range. */
export function readTransactionSearch(raw: unknown): { form: SearchForm; extras: ExtraFilters } | null {
  const search = transactionSearchSchema.parse(raw ?? {});
  if (!search.startDate || !search.endDate) return null;
  const form: SearchForm = {
    ...EMPTY_FORM,
    startDate: search.startDate,
    endDate: search.endDate,
    categories: search.categories ?? [],
    account: search.account ?? '',
    description: search.description ?? '',
  };
  const extras: ExtraFilters = {};
  if (search.payee) extras.payee = search.payee;
  if (search.direction) extras.direction = search.direction;
  if (search.counted) extras.counted = true;
  return { form, extras };
}

/** Search filters -> the search params of a link to exactly those rows. */
export function transactionSearchOf(filters: TransactionFilters): TransactionSearch {
  const search: TransactionSearch = { startDate: filters.startDate, endDate: filters.endDate };
  if (filters.categories?.length) search.categories = [...filters.categories];
  if (filters.account) search.account = filters.account;
  if (filters.description) search.description = filters.description;
  if (filters.payee) search.payee = filters.payee;
  if (filters.direction) search.direction = filters.direction;
  if (filters.counted) search.counted = true;
  return search;
}

/** What the extra filters mean, one label each (shown as removable chips). */
export function extraFilterLabels(extras: ExtraFilters): { key: keyof ExtraFilters; label: string }[] {
  const labels: { key: keyof ExtraFilters; label: string }[] = [];
  if (extras.payee) labels.push({ key: 'payee', label: `Payee: ${extras.payee}` });
  if (extras.direction) labels.push({ key: 'direction', label: extras.direction === 'in' ? 'Money in only' : 'Money out only' });
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
