import type { TransactionSearchParams } from '../../routes';
import { EMPTY_FORM, initialForm, type SearchForm } from './searchForm';

/**
 * The search form <-> the URL of /transactions (`?start&end&categories&account&description&min&max`).
 * Without dates in the URL the screen opens on this month; empty dates (`?start=&end=`) are a
 * cleared form. The URL holds the search as typed, so a reload or a shared link shows it again.
 */
export function formFromSearch(search: TransactionSearchParams, today: string): SearchForm {
  const base = search.start === undefined && search.end === undefined ? initialForm(today) : EMPTY_FORM;
  return {
    startDate: search.start ?? base.startDate,
    endDate: search.end ?? base.endDate,
    categories: search.categories ?? [],
    account: search.account ?? '',
    description: search.description ?? '',
    minAmount: search.min ?? '',
    maxAmount: search.max ?? '',
  };
}

/** The URL's search for a form: nothing at all for the first visit's form (this month, no filters). */
export function searchFromForm(form: SearchForm, today: string): TransactionSearchParams {
  if (sameForm(form, initialForm(today))) return {};
  const search: TransactionSearchParams = { start: form.startDate, end: form.endDate };
  if (form.categories.length > 0) search.categories = form.categories;
  if (form.account) search.account = form.account;
  if (form.description) search.description = form.description;
  if (form.minAmount) search.min = form.minAmount;
  if (form.maxAmount) search.max = form.maxAmount;
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
    a.categories.length === b.categories.length &&
    a.categories.every((c, i) => c === b.categories[i])
  );
}
