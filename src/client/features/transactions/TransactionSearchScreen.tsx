import { Alert, Box, Typography } from '@mui/material';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { TransactionDto, TransactionFilters } from '../../../shared/schemas/transactions';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { sharedLoadError, useAccountNames, useCategoryNames } from '../../components/transactions/hooks';
import { TransactionTable } from '../../components/transactions/TransactionTable';
import { mergeById, removeByIds } from '../../lib/transactions';
import { trpc } from '../../lib/trpc';
import { buildFilters, EMPTY_FORM, searchTotal, type SearchForm } from './searchForm';
import { SearchFilters } from './SearchFilters';

/** Dates typed digit by digit pass through valid values; wait for the typing to settle. */
const AUTO_SEARCH_DELAY_MS = 400;
/** The filters survive a trip to Edit Transaction and back (per browser tab). */
const STORAGE_KEY = 'transactionSearch.filters';

function storedForm(): SearchForm {
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<SearchForm> | null;
    if (!saved || typeof saved !== 'object') return EMPTY_FORM;
    const form = { ...EMPTY_FORM };
    for (const key of Object.keys(EMPTY_FORM) as (keyof SearchForm)[]) {
      const value = saved[key];
      if (key === 'categories') form.categories = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
      else if (typeof value === 'string') form[key] = value;
    }
    return form;
  } catch {
    return EMPTY_FORM;
  }
}

/**
 * Transaction Search (/transactions): filters, an automatic search once both dates are
 * set, Clear Filters, Fix Split Status, the 'Found N transactions' banner and the
 * results in the shared, editable transaction table.
 */
export function TransactionSearchScreen() {
  const [form, setForm] = useState<SearchForm>(storedForm);
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
      const built = buildFilters(formRef.current);
      if (!built.ok) {
        if (!quiet) setFormError(built);
        return;
      }
      setFormError(null);
      void run(built.filters);
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
    if (!form.startDate || !form.endDate) return;
    const timer = setTimeout(() => search(false), AUTO_SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [form.startDate, form.endDate, search]);

  function clearFilters() {
    requestId.current++;
    lastFilters.current = null;
    setForm(EMPTY_FORM);
    setFormError(null);
    setResults(null);
    setSearching(false);
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
    () => (categories.names.some((name) => name.toLowerCase() === 'uncategorized') ? categories.names : [...categories.names, 'uncategorized']),
    [categories.names],
  );
  const total = results ? searchTotal(results) : null;

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
        onChange={(patch) => {
          setForm((current) => ({ ...current, ...patch }));
          setFormError(null);
        }}
        onSearch={() => search(false)}
        onClear={clearFilters}
        onFixSplitStatus={() => setConfirmFix(true)}
      />
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
          <Alert severity="info" icon={false} role="status" sx={{ mb: 2 }}>
            <Box component="span" sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 3, rowGap: 0.5 }}>
              <strong>Found {results.length} transactions</strong>
              <span>
                Total: {total.text} {total.label}
              </span>
            </Box>
          </Alert>
          <TransactionTable
            transactions={results}
            loading={searching}
            onTransactionsUpdated={onUpdated}
            onTransactionsDeleted={onDeleted}
            onSplitChanged={refresh}
            emptyText="No transactions match these filters."
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
