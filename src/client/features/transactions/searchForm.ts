import { presetRange } from '../../../shared/dates/presets';
import { formatMoney, formatSignedMoney, magnitudeBounds, sumCents } from '../../../shared/money';
import type { TransactionDto, TransactionFilters } from '../../../shared/schemas/transactions';
import { readAmountField } from '../../lib/amountField';
import {
  countsAsIncomeOrSpending,
  isCountedTransaction,
  isInternalTransfer,
} from '../../../shared/transactions/counted';

/** The search form as typed (amounts are decimal text). */
export interface SearchForm {
  startDate: string;
  endDate: string;
  categories: string[];
  account: string;
  description: string;
  minAmount: string;
  maxAmount: string;
  /** 'suggested': only rows whose category was suggested and not yet reviewed; '' for all. */
  categorySource: string;
}

export const EMPTY_FORM: SearchForm = {
  startDate: '',
  endDate: '',
  categories: [],
  account: '',
  description: '',
  minAmount: '',
  maxAmount: '',
  categorySource: '',
};

/** The form a first visit opens with: this month's transactions. */
export function initialForm(today: string): SearchForm {
  return { ...EMPTY_FORM, ...presetRange('This month', today) };
}

/** Helper text of Min Amount and Max Amount. */
export const AMOUNT_BOUNDS_HELP = 'Amounts are compared by size (the sign is ignored)';

export type BuiltFilters =
  { ok: true; filters: TransactionFilters } | { ok: false; field: keyof SearchForm; message: string };

/**
 * Form -> search filters: runs only with both dates; min and max are read
 * with the shared amount parser in the browser's locale, as sizes (magnitudes, smaller first),
 * and omitted when blank; text that is no amount stops the search with a message at its field.
 */
export function buildFilters(form: SearchForm, locale = 'en-US'): BuiltFilters {
  if (!form.startDate) return { ok: false, field: 'startDate', message: 'Start Date is required' };
  if (!form.endDate) return { ok: false, field: 'endDate', message: 'End Date is required' };
  if (form.startDate > form.endDate)
    return { ok: false, field: 'endDate', message: 'End Date must not be before Start Date' };
  const filters: TransactionFilters = { startDate: form.startDate, endDate: form.endDate };
  if (form.categories.length > 0) filters.categories = form.categories;
  if (form.account.trim()) filters.account = form.account.trim();
  if (form.description.trim()) filters.description = form.description.trim();
  if (form.categorySource === 'suggested') filters.categorySource = 'suggested';
  const bounds: { minAmount?: number; maxAmount?: number } = {};
  for (const field of ['minAmount', 'maxAmount'] as const) {
    const read = readAmountField(form[field], locale);
    if (!read.ok) return { ok: false, field, message: read.message };
    if (read.cents !== null) bounds[field] = read.cents;
  }
  Object.assign(filters, magnitudeBounds(bounds));
  return { ok: true, filters };
}

/**
 * The result banner's net: split parts count, their parents never (a parent's amount is already in its parts), and
 * transfers between accounts never (money moved, not earned or spent); `transfersLeftOut` says how many rows that
 * left out. Written with its sign, "Net: +$2,357.37" for money in, "Net: −$842.33" for money out.
 */
export function searchTotal(
  rows: readonly TransactionDto[],
  currency: string | null = null,
): {
  cents: number;
  text: string;
  transfersLeftOut: number;
} {
  const sum = sumCents(rows.filter(countsAsIncomeOrSpending).map((tx) => tx.amount));
  const transfersLeftOut = rows.filter((tx) => isCountedTransaction(tx) && isInternalTransfer(tx)).length;
  return { cents: sum, text: `Net: ${formatSignedMoney(sum, { currency })}`, transfersLeftOut };
}

/** What the total says of the transfers it left out: "(2 transfers between accounts left out)". */
export function transfersLeftOutNote(count: number): string {
  return count === 0 ? '' : ` (${count} transfer${count === 1 ? '' : 's'} between accounts left out)`;
}

/** What an empty result says: with amount bounds it names the sizes searched for. */
export function emptyResultText(filters: TransactionFilters | null): string {
  if (!filters || (filters.minAmount === undefined && filters.maxAmount === undefined))
    return 'No transactions match these filters.';
  const min = filters.minAmount === undefined ? null : formatMoney(filters.minAmount);
  const max = filters.maxAmount === undefined ? null : formatMoney(filters.maxAmount);
  const size = min && max ? `of size ${min} to ${max}` : min ? `of size ${min} or more` : `of size up to ${max}`;
  return `No transactions ${size} (either sign) match these filters.`;
}
