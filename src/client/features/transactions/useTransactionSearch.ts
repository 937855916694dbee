import { keepPreviousData } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { localIsoDate } from '../../../shared/dates/calendar';
import { presetRange, type DatePreset } from '../../../shared/dates/presets';
import { browserLocale } from '../../lib/locale';
import { trpc } from '../../lib/trpc';
import { buildFilters, EMPTY_FORM, type SearchForm } from './searchForm';
import { formFromSearch, sameForm, searchFromForm } from './searchParams';

const route = getRouteApi('/_auth/transactions');

/** Dates typed digit by digit pass through valid values; wait for the typing to settle (typed dates only). */
const AUTO_SEARCH_DELAY_MS = 400;

/**
 * Transaction Search's state: the submitted search lives in the URL and its results in TanStack
 * Query (a newer search simply wins; no request bookkeeping). The form is the search being typed;
 * Back, Forward and reload set it from the URL again.
 */
export function useTransactionSearch() {
  const [today] = useState(() => localIsoDate(new Date()));
  const navigate = useNavigate();
  const search = route.useSearch();
  const submitted = useMemo(() => formFromSearch(search, today), [search, today]);
  const built = useMemo(() => buildFilters(submitted, browserLocale()), [submitted]);
  const filters = built.ok ? built.filters : null;
  const query = trpc.transactions.list.useQuery(filters ?? { startDate: '', endDate: '' }, {
    enabled: filters !== null,
    placeholderData: keepPreviousData,
  });
  const [form, setForm] = useState<SearchForm>(submitted);
  const [formError, setFormError] = useState<{ field: keyof SearchForm; message: string } | null>(null);
  // Preset dates search at once; only dates typed by hand wait for the typing to settle.
  const immediate = useRef(false);
  const formRef = useRef(form);
  formRef.current = form;

  // The URL changed under the form (Back, Forward, a link): the form shows that search.
  useEffect(() => setForm((current) => (sameForm(current, submitted) ? current : submitted)), [submitted]);

  useEffect(() => {
    // SPEC section 8: search failures are only logged.
    if (query.error) console.error('Transaction search failed', query.error);
  }, [query.error]);

  const run = useCallback(
    (quiet: boolean) => {
      const next = buildFilters(formRef.current, browserLocale());
      if (!next.ok) {
        if (!quiet) setFormError(next);
        return;
      }
      setFormError(null);
      // The same search again fetches again; a new one is a new URL (and a new query).
      if (sameForm(formRef.current, submitted)) void query.refetch();
      else void navigate({ to: '/transactions', search: searchFromForm(formRef.current, today), replace: true });
    },
    [navigate, query, submitted, today],
  );

  // The search runs by itself once both dates are set (and again when either changes).
  useEffect(() => {
    if (!form.startDate || !form.endDate) return;
    if (form.startDate === submitted.startDate && form.endDate === submitted.endDate) return;
    if (immediate.current) {
      immediate.current = false;
      run(false);
      return;
    }
    const timer = setTimeout(() => run(false), AUTO_SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [form.startDate, form.endDate, submitted.startDate, submitted.endDate, run]);

  const choosePreset = useCallback(
    (preset: DatePreset) => {
      immediate.current = true;
      setForm((current) => ({ ...current, ...presetRange(preset, today) }));
      setFormError(null);
    },
    [today],
  );

  const change = useCallback((patch: Partial<SearchForm>) => {
    setForm((current) => ({ ...current, ...patch }));
    setFormError(null);
  }, []);

  const clear = useCallback(() => {
    setForm(EMPTY_FORM);
    setFormError(null);
    void navigate({ to: '/transactions', search: searchFromForm(EMPTY_FORM, today), replace: true });
  }, [navigate, today]);

  const results = filters ? (query.data ?? null) : null;
  const searching = filters !== null && query.isFetching;
  // The banner speaks of the dates shown: hidden while a search runs or the dates were changed since.
  const current = !searching && filters !== null && filters.startDate === form.startDate && filters.endDate === form.endDate;
  return { today, form, formError, filters, results, searching, current, run, choosePreset, change, clear };
}
