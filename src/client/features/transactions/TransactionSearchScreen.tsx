import { Alert, Box, Button, Chip, Stack, Typography } from '@mui/material';
import { useSearch } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { isReservedCategoryName, UNCATEGORIZED_LABEL } from '../../../shared/categories';
import { localIsoDate } from '../../../shared/dates/calendar';
import { presetOf, presetRange, type DatePreset } from '../../../shared/dates/presets';
import type { TransactionDto, TransactionFilters } from '../../../shared/schemas/transactions';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { sharedLoadError, useAccountNames, useCategoryNames } from '../../components/transactions/hooks';
import { originalsNote, rowCounts } from '../../components/transactions/tableState';
import { TransactionTable } from '../../components/transactions/TransactionTable';
import { browserLocale } from '../../lib/locale';
import { mergeById, removeByIds } from '../../lib/transactions';
import { downloadWithSession } from '../../lib/download';
import { trpc } from '../../lib/trpc';
import { buildFilters, EMPTY_FORM, emptyResultText, initialForm, searchTotal, type SearchForm } from './searchForm';
import { SearchFilters } from './SearchFilters';
import { exportCsvPath, extraFilterLabels, readTransactionSearch, type ExtraFilters } from './searchParams';

/** Dates typed digit by digit pass through valid values; wait for the typing to settle (typed dates only). */
const AUTO_SEARCH_DELAY_MS = 400;
/** The filters survive a trip to Edit Transaction and back (per browser tab). */
const STORAGE_KEY = 'transactionSearch.filters';

/** The filters kept from this tab's last search, or this month's on a first visit. */
function storedForm(today: string): SearchForm {
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<SearchForm> | null;
    if (!saved || typeof saved !== 'object') return initialForm(today);
    const form = { ...EMPTY_FORM };
    for (const key of Object.keys(EMPTY_FORM) as (keyof SearchForm)[]) {
      const value = saved[key];
      if (key === 'categories') form.categories = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
      else if (typeof value === 'string') form[key] = value;
    }
    return form;
  } catch {
    return initialForm(today);
  }
}

/**
 * Transaction Search (/transactions): filters, an automatic search once both dates are
 * set, Clear Filters, Fix Split Status, the 'Found N transactions' banner and the
 * results in the shared, editable transaction table.
 */
export function TransactionSearchScreen() {
  const urlSearch = useSearch({ strict: false });
  const [today] = useState(() => localIsoDate(new Date()));
  // A link with filters (a report's bar or payee) wins over the tab's last search.
  const [linked] = useState(() => readTransactionSearch(urlSearch));
  const [form, setForm] = useState<SearchForm>(() => linked?.form ?? storedForm(today));
  const [extras, setExtras] = useState<ExtraFilters>(() => linked?.extras ?? {});
  const extrasRef = useRef(extras);
  extrasRef.current = extras;
  const [searchedFilters, setSearchedFilters] = useState<TransactionFilters | null>(null);
  // Restored or preset dates search at once; only dates typed by hand wait for the typing to settle.
  const immediate = useRef(true);
  const [formError, setFormError] = useState<{ field: keyof SearchForm; message: string } | null>(null);
  const [results, setResults] = useState<TransactionDto[] | null>(null);
  const [searching, setSearching] = useState(false);
  const [confirmFix, setConfirmFix] = useState(false);
  const [fixResult, setFixResult] = useState<{ ok: boolean; text: string } | null>(null);
  const categories = useCategoryNames();
  const accounts = useAccountNames();
  const loadError = sharedLoadError(categories.error, accounts.error);
  const utils = trpc.useUtils();
  const fixSplitStatus = trpc.transactions.fixSplitStatus.useMutation();
  const requestId = useRef(0);
  const lastFilters = useRef<TransactionFilters | null>(null);
  const formRef = useRef(form);
  formRef.current = form;

  const run = useCallback(
    async (filters: TransactionFilters) => {
      const id = ++requestId.current;
      setSearching(true);
      try {
        const rows = await utils.client.transactions.list.query(filters);
        if (id !== requestId.current) return;
        lastFilters.current = filters;
        setSearchedFilters(filters);
        setResults(rows);
      } catch (failure) {
        // SPEC section 8: search failures are only logged.
        console.error('Transaction search failed', failure);
      } finally {
        if (id === requestId.current) setSearching(false);
      }
    },
    [utils],
  );

  const search = useCallback(
    (quiet: boolean) => {
      const built = buildFilters(formRef.current, browserLocale());
      if (!built.ok) {
        if (!quiet) setFormError(built);
        return;
      }
      setFormError(null);
      void run({ ...built.filters, ...extrasRef.current });
    },
    [run],
  );

  useEffect(() => {
    try {
      if (form === EMPTY_FORM) sessionStorage.removeItem(STORAGE_KEY);
      else sessionStorage.setItem(STORAGE_KEY, JSON.stringify(form));
    } catch {
      // Storage may be unavailable (private mode); the filters are then simply not kept.
    }
  }, [form]);

  // The search runs by itself once both dates are set (and again when either changes).
  useEffect(() => {
    if (!form.startDate || !form.endDate) {
      immediate.current = false;
      return;
    }
    if (immediate.current) {
      immediate.current = false;
      search(false);
      return;
    }
    const timer = setTimeout(() => search(false), AUTO_SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [form.startDate, form.endDate, search]);

  function choosePreset(preset: DatePreset) {
    immediate.current = true;
    setForm((current) => ({ ...current, ...presetRange(preset, today) }));
    setFormError(null);
  }

  function clearFilters() {
    requestId.current++;
    lastFilters.current = null;
    setSearchedFilters(null);
    setForm(EMPTY_FORM);
    setExtras({});
    setFormError(null);
    setResults(null);
    setSearching(false);
  }

  function removeExtra(key: keyof ExtraFilters) {
    const next = { ...extras };
    delete next[key];
    extrasRef.current = next;
    setExtras(next);
    search(true);
  }

  async function fix() {
    try {
      const result = await fixSplitStatus.mutateAsync();
      setFixResult({ ok: true, text: `Fixed ${result.message} orphaned split transactions` });
      if (lastFilters.current) void run(lastFilters.current);
    } catch (failure) {
      console.error('Fix split status failed', failure);
      setFixResult({ ok: false, text: 'Error fixing split status' });
    } finally {
      setConfirmFix(false);
    }
  }

  const refresh = useCallback(() => {
    if (lastFilters.current) void run(lastFilters.current);
  }, [run]);
  const onUpdated = useCallback((rows: TransactionDto[]) => setResults((current) => (current ? mergeById(current, rows) : current)), []);
  const onDeleted = useCallback((ids: number[]) => setResults((current) => (current ? removeByIds(current, ids) : current)), []);
  const categoryOptions = useMemo(
    // 'Uncategorized' (reserved: no category has that name) finds the transactions without one.
    () => [UNCATEGORIZED_LABEL, ...categories.names.filter((name) => !isReservedCategoryName(name))],
    [categories.names],
  );
  const total = results ? searchTotal(results) : null;
  const note = results ? originalsNote(rowCounts(results)) : null;
  // The banner speaks of the dates shown: hidden while a search runs or the dates were changed since.
  const current =
    !searching && searchedFilters !== null && searchedFilters.startDate === form.startDate && searchedFilters.endDate === form.endDate;

  return (
    <Box>
      <Typography variant="h1" gutterBottom>
        Transaction Search
      </Typography>
      <SearchFilters
        form={form}
        error={formError}
        categoryOptions={categoryOptions}
        accountNames={accounts.names}
        searching={searching}
        fixing={fixSplitStatus.isPending}
        preset={presetOf(form, today)}
        onPreset={choosePreset}
        onChange={(patch) => {
          setForm((current) => ({ ...current, ...patch }));
          setFormError(null);
        }}
        onSearch={() => search(false)}
        onClear={clearFilters}
        onFixSplitStatus={() => setConfirmFix(true)}
      />
      {extraFilterLabels(extras).length > 0 && (
        <Stack direction="row" aria-label="Filters from the link" sx={{ mb: 2, flexWrap: 'wrap', gap: 1 }}>
          {extraFilterLabels(extras).map(({ key, label }) => (
            <Chip key={key} label={label} onDelete={() => removeExtra(key)} />
          ))}
        </Stack>
      )}
      {loadError && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {loadError}
        </Alert>
      )}
      {fixResult && (
        <Alert severity={fixResult.ok ? 'success' : 'error'} role="alert" onClose={() => setFixResult(null)} sx={{ mb: 2 }}>
          {fixResult.text}
        </Alert>
      )}
      {results && total && (
        <>
          <Alert severity="info" icon={false} role="status" sx={{ mb: 2, visibility: current ? 'visible' : 'hidden' }} aria-hidden={!current}>
            <Box component="span" sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 3, rowGap: 0.5 }}>
              <strong>Found {results.length} transactions</strong>
              <span>
                Total: {total.text} {total.label}
              </span>
              {note && <span>{note}</span>}
              {searchedFilters && (
                <Button size="small" variant="outlined" sx={{ ml: 'auto' }} onClick={() => void downloadWithSession(exportCsvPath(searchedFilters))}>
                  Export CSV
                </Button>
              )}
            </Box>
          </Alert>
          <TransactionTable
            transactions={results}
            loading={searching}
            onTransactionsUpdated={onUpdated}
            onTransactionsDeleted={onDeleted}
            onSplitChanged={refresh}
            emptyText={emptyResultText(searchedFilters)}
          />
        </>
      )}
      {!results && searching && <Typography color="text.secondary">Searching...</Typography>}
      <ConfirmDialog
        open={confirmFix}
        title="Fix Split Status"
        message="This will reset any transactions that are marked as split but have no split children. Continue?"
        confirmLabel="Continue"
        busy={fixSplitStatus.isPending}
        onConfirm={() => void fix()}
        onCancel={() => setConfirmFix(false)}
      />
    </Box>
  );
}
