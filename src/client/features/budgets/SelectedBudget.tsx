import { Alert, Box, Button, LinearProgress, Typography } from '@mui/material';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { computeBudgetOverview } from '../../../shared/budget';
import type { BudgetDto, LineItemDto } from '../../../shared/schemas/budgets';
import type { TransactionDto } from '../../../shared/schemas/transactions';
import { rowCounts, showingAllText, showingSomeText } from '../../components/transactions/tableState';
import { TransactionTable } from '../../components/transactions/TransactionTable';
import { mergeById, removeByIds } from '../../lib/transactions';
import { trpc } from '../../lib/trpc';
import { BudgetOverviewPanel } from './BudgetOverviewPanel';
import { applyOverviewFilter, describeFilter, toggleFilter, type OverviewFilter } from './overviewFilter';

export const FETCH_TRANSACTIONS_ERROR = 'Failed to fetch transactions';

interface SelectedBudgetProps {
  budget: BudgetDto;
  lineItems: LineItemDto[];
}

/**
 * The 'Selected Budget' section: the budget's transactions (between its start and end
 * dates), the overview panel computed from the rows as they are now (table edits included)
 * and the shared transaction table, narrowed by the panel's filter. Mounted afresh for each
 * selection, so selecting a budget resets the filter.
 */
export function SelectedBudget({ budget, lineItems }: SelectedBudgetProps) {
  const utils = trpc.useUtils();
  const [rows, setRows] = useState<TransactionDto[] | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState('');
  const [filter, setFilter] = useState<OverviewFilter>(null);
  const requestId = useRef(0);

  const load = useCallback(async () => {
    const id = ++requestId.current;
    setLoading(true);
    setError('');
    try {
      const found = await utils.client.transactions.list.query({ startDate: budget.startDate, endDate: budget.endDate });
      if (id === requestId.current) setRows(found);
    } catch (failure) {
      console.warn('Loading the budget transactions failed', failure);
      if (id === requestId.current) setError(FETCH_TRANSACTIONS_ERROR);
    } finally {
      if (id === requestId.current) setLoading(false);
    }
  }, [utils, budget.startDate, budget.endDate]);

  useEffect(() => {
    void load();
    return () => {
      requestId.current += 1;
    };
  }, [load]);

  const overview = useMemo(() => computeBudgetOverview(rows ?? [], lineItems), [rows, lineItems]);
  const shown = useMemo(() => applyOverviewFilter(rows ?? [], filter, lineItems, overview), [rows, filter, lineItems, overview]);
  const onUpdated = useCallback((updated: TransactionDto[]) => setRows((current) => (current ? mergeById(current, updated) : current)), []);
  const onDeleted = useCallback((ids: number[]) => setRows((current) => (current ? removeByIds(current, ids) : current)), []);
  const onSplitChanged = useCallback(() => void load(), [load]);
  const counts = useMemo(() => rowCounts(rows ?? []), [rows]);
  const toggle = useCallback((next: Exclude<OverviewFilter, null>) => setFilter((current) => toggleFilter(current, next)), []);

  return (
    <Box component="section" aria-labelledby="selected-budget-heading" sx={{ mt: 3 }}>
      <Typography variant="h2" id="selected-budget-heading" gutterBottom>
        Selected Budget
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2, overflowWrap: 'anywhere' }}>
        <strong>{budget.name}</strong>: {budget.startDate} to {budget.endDate}
      </Typography>
      {error && (
        <Alert
          severity="error"
          role="alert"
          sx={{ mb: 2 }}
          action={
            <Button color="inherit" size="small" onClick={() => void load()}>
              Retry
            </Button>
          }
        >
          {error}
        </Alert>
      )}
      {rows === null && loading && <LinearProgress aria-label="Loading transactions" sx={{ mb: 2 }} />}
      {rows !== null && (
        <>
          <BudgetOverviewPanel overview={overview} filter={filter} onToggle={toggle} />
          <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', columnGap: 1, mb: 1, minHeight: 32 }}>
            <Typography variant="body2" role="status">
              {filter ? `Filtered by ${describeFilter(filter, overview)}: ${showingSomeText(shown.length, counts)}` : showingAllText(counts)}
            </Typography>
            {filter && (
              <Button size="small" onClick={() => setFilter(null)}>
                Clear Filter
              </Button>
            )}
          </Box>
          <TransactionTable
            transactions={shown}
            loading={loading}
            onTransactionsUpdated={onUpdated}
            onTransactionsDeleted={onDeleted}
            onSplitChanged={onSplitChanged}
            emptyText={filter ? 'No transactions match this filter.' : 'No transactions in this budget period.'}
            maxHeight={560}
            memoryKey={`budget-${budget.id}`}
          />
        </>
      )}
    </Box>
  );
}
