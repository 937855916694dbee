import { Alert, Box, Button, Chip, Stack, Typography } from '@mui/material';
import { useMemo, useState } from 'react';
import { isReservedCategoryName, UNCATEGORIZED_LABEL } from '../../../shared/categories';
import { presetOf } from '../../../shared/dates/presets';
import type { TransactionDto, TransactionFilters } from '../../../shared/schemas/transactions';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { sharedLoadError, useAccountNames, useCategoryNames } from '../../components/transactions/hooks';
import { originalsNote, rowCounts } from '../../components/transactions/tableState';
import { TransactionTable } from '../../components/transactions/TransactionTable';
import { downloadWithSession } from '../../lib/download';
import { trpc } from '../../lib/trpc';
import { emptyResultText, searchTotal } from './searchForm';
import { SearchFilters } from './SearchFilters';
import { exportCsvPath, extraFilterLabels, type ExtraFilters } from './searchParams';
import { useTransactionSearch } from './useTransactionSearch';
import { DueSoon } from '../schedules/DueSoon';

/**
 * Transaction Search (/transactions): filters (kept in the URL), an automatic search once both
 * dates are set, Clear Filters, Fix Split Status, the 'Found N transactions' banner and the
 * results in the shared, editable transaction table.
 */
export function TransactionSearchScreen() {
  const search = useTransactionSearch();
  const { today, form, formError, filters, extras, results, searching, current } = search;
  const categories = useCategoryNames();
  const accounts = useAccountNames();
  const loadError = sharedLoadError(categories.error, accounts.error);
  const fix = useFixSplitStatus();
  const categoryOptions = useMemo(
    // 'Uncategorized' (reserved: no category has that name) finds the transactions without one.
    () => [UNCATEGORIZED_LABEL, ...categories.names.filter((name) => !isReservedCategoryName(name))],
    [categories.names],
  );

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
        fixing={fix.busy}
        preset={presetOf(form, today)}
        onPreset={search.choosePreset}
        onChange={search.change}
        onSearch={() => search.run(false)}
        onClear={search.clear}
        onFixSplitStatus={fix.ask}
      />
      <ExtraFilterChips extras={extras} onRemove={search.removeExtra} />
      <DueSoon />
      {loadError && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {loadError}
        </Alert>
      )}
      {fix.result && (
        <Alert severity={fix.result.ok ? 'success' : 'error'} role="alert" onClose={fix.dismiss} sx={{ mb: 2 }}>
          {fix.result.text}
        </Alert>
      )}
      {results && filters && (
        <SearchResults results={results} filters={filters} searching={searching} current={current} />
      )}
      {!results && searching && <Typography color="text.secondary">Searching...</Typography>}
      <ConfirmDialog
        open={fix.asking}
        title="Fix Split Status"
        message="This will reset any transactions that are marked as split but have no split children. Continue?"
        confirmLabel="Continue"
        busy={fix.busy}
        onConfirm={() => void fix.run()}
        onCancel={fix.cancel}
      />
    </Box>
  );
}

/** Fix Split Status: asked to confirm, then every cached search is fetched again. */
function useFixSplitStatus() {
  const [asking, setAsking] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const utils = trpc.useUtils();
  const mutation = trpc.transactions.fixSplitStatus.useMutation();
  async function run() {
    try {
      const answer = await mutation.mutateAsync();
      setResult({ ok: true, text: `Fixed ${answer.message} orphaned split transactions` });
      void utils.transactions.invalidate();
    } catch (failure) {
      console.error('Fix split status failed', failure);
      setResult({ ok: false, text: 'Error fixing split status' });
    } finally {
      setAsking(false);
    }
  }
  return {
    asking,
    result,
    busy: mutation.isPending,
    ask: () => setAsking(true),
    cancel: () => setAsking(false),
    dismiss: () => setResult(null),
    run,
  };
}

/** The filters a link brought beyond the form's (a report's payee, direction, counted rows), each removable. */
function ExtraFilterChips({ extras, onRemove }: { extras: ExtraFilters; onRemove: (key: keyof ExtraFilters) => void }) {
  const labels = extraFilterLabels(extras);
  if (labels.length === 0) return null;
  return (
    <Stack direction="row" aria-label="Filters from the link" sx={{ mb: 2, flexWrap: 'wrap', gap: 1 }}>
      {labels.map(({ key, label }) => (
        <Chip key={key} label={label} onDelete={() => onRemove(key)} />
      ))}
    </Stack>
  );
}

/** The banner (count, total, originals), Export CSV of exactly this search, and the rows. */
function SearchResults(props: {
  results: TransactionDto[];
  filters: TransactionFilters;
  searching: boolean;
  current: boolean;
}) {
  const { results, filters, searching, current } = props;
  const total = searchTotal(results);
  const note = originalsNote(rowCounts(results));
  return (
    <>
      <Alert
        severity="info"
        icon={false}
        role="status"
        sx={{ mb: 2, visibility: current ? 'visible' : 'hidden' }}
        aria-hidden={!current}
      >
        <Box component="span" sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 3, rowGap: 0.5 }}>
          <strong>Found {results.length} transactions</strong>
          <span>{total.text}</span>
          {note && <span>{note}</span>}
        </Box>
      </Alert>
      <Stack direction="row" sx={{ justifyContent: 'flex-end', mb: 1 }}>
        <Button size="small" variant="outlined" onClick={() => void downloadWithSession(exportCsvPath(filters))}>
          Export CSV
        </Button>
      </Stack>
      <TransactionTable transactions={results} loading={searching} emptyText={emptyResultText(filters)} />
    </>
  );
}
