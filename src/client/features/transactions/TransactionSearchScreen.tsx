import { Alert, Box, Typography } from '@mui/material';
import { useMemo, useState } from 'react';
import { isReservedCategoryName, UNCATEGORIZED_LABEL } from '../../../shared/categories';
import { presetOf } from '../../../shared/dates/presets';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { sharedLoadError, useAccountNames, useCategoryNames } from '../../components/transactions/hooks';
import { originalsNote, rowCounts } from '../../components/transactions/tableState';
import { TransactionTable } from '../../components/transactions/TransactionTable';
import { trpc } from '../../lib/trpc';
import { emptyResultText, searchTotal } from './searchForm';
import { SearchFilters } from './SearchFilters';
import { useTransactionSearch } from './useTransactionSearch';

/**
 * Transaction Search (/transactions): filters (kept in the URL), an automatic search once both
 * dates are set, Clear Filters, Fix Split Status, the 'Found N transactions' banner and the
 * results in the shared, editable transaction table.
 */
export function TransactionSearchScreen() {
  const { today, form, formError, filters, results, searching, current, run, choosePreset, change, clear } = useTransactionSearch();
  const [confirmFix, setConfirmFix] = useState(false);
  const [fixResult, setFixResult] = useState<{ ok: boolean; text: string } | null>(null);
  const categories = useCategoryNames();
  const accounts = useAccountNames();
  const loadError = sharedLoadError(categories.error, accounts.error);
  const utils = trpc.useUtils();
  const fixSplitStatus = trpc.transactions.fixSplitStatus.useMutation();

  async function fix() {
    try {
      const result = await fixSplitStatus.mutateAsync();
      setFixResult({ ok: true, text: `Fixed ${result.message} orphaned split transactions` });
      void utils.transactions.invalidate();
    } catch (failure) {
      console.error('Fix split status failed', failure);
      setFixResult({ ok: false, text: 'Error fixing split status' });
    } finally {
      setConfirmFix(false);
    }
  }

  const categoryOptions = useMemo(
    // 'Uncategorized' (reserved: no category has that name) finds the transactions without one.
    () => [UNCATEGORIZED_LABEL, ...categories.names.filter((name) => !isReservedCategoryName(name))],
    [categories.names],
  );
  const total = results ? searchTotal(results) : null;
  const note = results ? originalsNote(rowCounts(results)) : null;
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
        onChange={change}
        onSearch={() => run(false)}
        onClear={clear}
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
          <Alert severity="info" icon={false} role="status" sx={{ mb: 2, visibility: current ? 'visible' : 'hidden' }} aria-hidden={!current}>
            <Box component="span" sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 3, rowGap: 0.5 }}>
              <strong>Found {results.length} transactions</strong>
              <span>
                Total: {total.text} {total.label}
              </span>
              {note && <span>{note}</span>}
            </Box>
          </Alert>
          <TransactionTable
            transactions={results}
            loading={searching}
            emptyText={emptyResultText(filters)}
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
