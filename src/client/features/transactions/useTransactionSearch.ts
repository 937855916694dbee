import { keepPreviousData } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { localIsoDate } from '../../../shared/dates/calendar';
import { presetRange, type DatePreset } from '../../../shared/dates/presets';
import type { TransactionFilters } from '../../../shared/schemas/transactions';
import { browserLocale } from '../../lib/locale';
import { trpc } from '../../lib/trpc';
import { buildFilters, EMPTY_FORM, type SearchForm } from './searchForm';
import {
  readTransactionSearch,
  sameForm,
  searchOfForm,
  type ExtraFilters,
  type TransactionSearch,
} from './searchParams';

const route = getRouteApi('/_auth/transactions');

/**
 * A date is complete once its year has four digits: a date field typed digit by digit passes through
 * years 0002, 0020, 0202 before 2024, and those are not searched. Anything complete searches at once.
 */
const COMPLETE_DATE = /^[1-9]\d{3}-\d{2}-\d{2}$/;

/** Never sent: the query is disabled while the submitted search has no full date range. */
const NO_FILTERS: TransactionFilters = { startDate: '', endDate: '' };

/**
 * Transaction Search's state: the submitted search lives in the URL (searchParams.ts) and its rows in
 * TanStack Query (a newer search simply wins; no request bookkeeping). The form is the search being
 * typed; Back, Forward, a link and a reload set it from the URL again.
 */
export function useTransactionSearch() {
  const [today] = useState(() => localIsoDate(new Date()));
  const { shown, submitted, filters, query, setPending } = useSubmittedSearch(today);
  const [form, setForm] = useState<SearchForm>(submitted.form);
  const [formError, setFormError] = useState<{ field: keyof SearchForm; message: string } | null>(null);
  const formRef = useRef(form);
  // eslint-disable-next-line react-hooks/refs -- latest-value ref read by stable callbacks; written before any of them can run
  formRef.current = form;

  // The URL changed under the form (Back, Forward, a link): the form shows that search.
  // eslint-disable-next-line react-hooks/set-state-in-effect -- the form follows a search the URL brings (Back, Forward, a link) and keeps the user's edits otherwise
  useEffect(() => setForm((current) => (sameForm(current, submitted.form) ? current : submitted.form)), [submitted]);

  // A search that runs by itself (dates changed) leaves the form as it is; Search folds it away.
  const filtersOpen = shown.filters === 'open';
  const { submit, setFiltersOpen } = useSearchNavigation(today, setPending);

  const run = useCallback(
    (quiet: boolean, fold = false) => {
      const built = buildFilters(formRef.current, browserLocale());
      if (!built.ok) {
        if (!quiet) setFormError(built);
        return;
      }
      setFormError(null);
      // The same search again fetches again; a new one is a new URL (and a new query).
      if (sameForm(formRef.current, submitted.form)) {
        void query.refetch();
        if (fold && filtersOpen) setFiltersOpen(false);
      } else submit(formRef.current, submitted.extras, filtersOpen && !fold);
    },
    [query, submitted, submit, filtersOpen, setFiltersOpen],
  );

  useAutoSearch(form, submitted.form, run);

  const choosePreset = useCallback(
    (preset: DatePreset) => {
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
    submit(EMPTY_FORM, {}, true);
  }, [submit]);

  /** Drops one of a link's extra filters and searches again with the search shown. */
  const removeExtra = useCallback(
    (key: keyof ExtraFilters) => {
      const { [key]: _removed, ...extras } = submitted.extras;
      submit(submitted.form, extras, filtersOpen);
    },
    [submitted, submit, filtersOpen],
  );

  const results = filters ? (query.data ?? null) : null;
  const searching = filters !== null && query.isFetching;
  // The banner speaks of the dates shown: hidden while a search runs or the dates were changed since.
  const current =
    !searching && filters !== null && filters.startDate === form.startDate && filters.endDate === form.endDate;
  return {
    today,
    form,
    formError,
    filters,
    extras: submitted.extras,
    results,
    searching,
    current,
    filtersOpen,
    setFiltersOpen,
    run,
    choosePreset,
    change,
    clear,
    removeExtra,
  };
}

/**
 * The submitted search and its rows. A search just submitted shows at once (Clear empties the screen in the same
 * click); the URL, updated a moment later, takes over again (as it does for Back, Forward and links).
 */
function useSubmittedSearch(today: string) {
  const urlSearch = route.useSearch();
  const [pending, setPending] = useState<TransactionSearch | null>(null);
  // eslint-disable-next-line react-hooks/set-state-in-effect -- the submitted search shows until the URL it navigated to arrives, then the URL takes over
  useEffect(() => setPending(null), [urlSearch]);
  const shown = pending ?? urlSearch;
  const submitted = useMemo(() => readTransactionSearch(shown, today), [shown, today]);
  const filters = useMemo(() => {
    const built = buildFilters(submitted.form, browserLocale());
    return built.ok ? { ...built.filters, ...submitted.extras } : null;
  }, [submitted]);
  // Every search asks the server (rows cached from an earlier search show meanwhile); a failed one is
  // logged at once and Search offered again (no retries in the background).
  const query = trpc.transactions.list.useQuery(filters ?? NO_FILTERS, {
    enabled: filters !== null,
    placeholderData: keepPreviousData,
    staleTime: 0,
    retry: false,
  });
  useEffect(() => {
    // A failed search is logged; the screen keeps its last rows and offers Search again.
    if (query.error) console.error('Transaction search failed', query.error);
  }, [query.error]);

  return { shown, submitted, filters, query, setPending };
}

/** Submitting a search (a new URL, shown at once through `setPending`), and opening or folding the filter form. */
function useSearchNavigation(today: string, setPending: (search: TransactionSearch) => void) {
  const navigate = useNavigate();
  const submit = useCallback(
    (next: SearchForm, extras: ExtraFilters, open: boolean) => {
      const search = { ...searchOfForm(next, extras, today), ...(open ? { filters: 'open' as const } : {}) };
      setPending(search);
      void navigate({ to: '/transactions', search, replace: true });
    },
    [navigate, today, setPending],
  );

  /** Opens or folds the filter form (kept in the URL, so Back returns to it as it was). */
  const setFiltersOpen = useCallback(
    (open: boolean) =>
      void navigate({
        to: '/transactions',
        search: (prev) => ({ ...prev, filters: open ? ('open' as const) : undefined }),
        replace: true,
      }),
    [navigate],
  );
  return { submit, setFiltersOpen };
}

/**
 * The search runs by itself once both dates are set, and again when either changes, at once (no
 * pause): a newer search is a new query key, so an older answer never shows over it.
 */
function useAutoSearch(form: SearchForm, submitted: SearchForm, run: (quiet: boolean) => void) {
  useEffect(() => {
    if (!COMPLETE_DATE.test(form.startDate) || !COMPLETE_DATE.test(form.endDate)) return;
    if (form.startDate === submitted.startDate && form.endDate === submitted.endDate) return;
    run(false);
  }, [form.startDate, form.endDate, submitted.startDate, submitted.endDate, run]);
}
