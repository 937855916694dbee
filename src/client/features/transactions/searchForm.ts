import { formatCents, parseDecimalToCents, sumCents } from '../../../shared/money';
import type { TransactionDto, TransactionFilters } from '../../../shared/schemas/transactions';

/** The search form as typed (amounts are decimal text). */
export interface SearchForm {
  startDate: string;
  endDate: string;
  categories: string[];
  account: string;
  description: string;
  minAmount: string;
  maxAmount: string;
}

export const EMPTY_FORM: SearchForm = {
  startDate: '',
  endDate: '',
  categories: [],
  account: '',
  description: '',
  minAmount: '',
  maxAmount: '',
};

export type BuiltFilters = { ok: true; filters: TransactionFilters } | { ok: false; field: keyof SearchForm; message: string };

/**
 * Form -> search filters (SPEC section 5): runs only with both dates; min and max are
 * parsed as decimals into cents and omitted when blank; empty filters are left out.
 */
export function buildFilters(form: SearchForm): BuiltFilters {
  if (!form.startDate) return { ok: false, field: 'startDate', message: 'Start Date is required' };
  if (!form.endDate) return { ok: false, field: 'endDate', message: 'End Date is required' };
  if (form.startDate > form.endDate) return { ok: false, field: 'endDate', message: 'End Date must not be before Start Date' };
  const filters: TransactionFilters = { startDate: form.startDate, endDate: form.endDate };
  if (form.categories.length > 0) filters.categories = form.categories;
  if (form.account.trim()) filters.account = form.account.trim();
  if (form.description.trim()) filters.description = form.description.trim();
  for (const field of ['minAmount', 'maxAmount'] as const) {
    const text = form[field].trim();
    if (!text) continue;
    const cents = parseDecimalToCents(text);
    if (cents === null) return { ok: false, field, message: 'Enter an amount such as 12.34' };
    filters[field] = cents;
  }
  return { ok: true, filters };
}

/**
 * The result banner's total: split parts count, their parents never (a parent's amount is
 * already in its parts). Shown as a magnitude, labelled Credit when the sum is >= 0.
 */
export function searchTotal(rows: readonly TransactionDto[]): { cents: number; label: 'Credit' | 'Debit'; text: string } {
  const sum = sumCents(rows.filter((tx) => !tx.isSplit).map((tx) => tx.amount));
  return { cents: sum, label: sum >= 0 ? 'Credit' : 'Debit', text: formatCents(Math.abs(sum)) };
}
