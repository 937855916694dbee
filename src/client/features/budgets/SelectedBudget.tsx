import { Alert, Box, Button, LinearProgress, Typography } from '@mui/material';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { computeBudgetOverview, transactionCategoryKey } from '../../../shared/budget';
import { UNCATEGORIZED_LABEL } from '../../../shared/categories';
import type { BudgetDto, LineItemDto } from '../../../shared/schemas/budgets';
import type { TransactionDto } from '../../../shared/schemas/transactions';
import { rowCounts, showingAllText, showingSomeText } from '../../components/transactions/tableState';
import { TransactionTable } from '../../components/transactions/TransactionTable';
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
 * dates, read through TanStack Query), the overview panel computed from the rows as they are now
 * (table edits update that cache)
 * and the shared transaction table, narrowed by the panel's filter. Mounted afresh for each
 * selection, so selecting a budget resets the filter.
 */
export function SelectedBudget({ budget, lineItems }: SelectedBudgetProps) {
  // Selecting a budget (again) shows its rows as they are now: fetched on every mount.
  const query = trpc.transactions.list.useQuery(
    { startDate: budget.startDate, endDate: budget.endDate },
    { refetchOnMount: 'always' },
  );
  const rows = query.data ?? null;
  const loading = query.isFetching;
  const error = query.isError ? FETCH_TRANSACTIONS_ERROR : '';
  const [filter, setFilter] = useState<OverviewFilter>(null);

  useEffect(() => {
    if (query.error) console.warn('Loading the budget transactions failed', query.error);
  }, [query.error]);

  const overview = useMemo(() => computeBudgetOverview(rows ?? [], lineItems), [rows, lineItems]);
  const shown = useMemo(
    () => applyOverviewFilter(rows ?? [], filter, lineItems, overview),
    [rows, filter, lineItems, overview],
  );
  const counts = useMemo(() => rowCounts(rows ?? []), [rows]);
  const categoryName = useMemo(() => categoryNamesOf(rows ?? []), [rows]);
  const toggle = useCallback(
    (next: Exclude<OverviewFilter, null>) => setFilter((current) => toggleFilter(current, next)),
    [],
  );

  return (
    <Box component="section" aria-labelledby="selected-budget-heading" sx={{ mt: 3 }}>
      <Typography variant="h2" id="selected-budget-heading" gutterBottom>
        Selected Budget
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2, overflowWrap: 'break-word' }}>
        <strong>{budget.name}</strong>: {budget.startDate} to {budget.endDate}
      </Typography>
      {error && (
        <Alert
          severity="error"
          role="alert"
          sx={{ mb: 2 }}
          action={
            <Button color="inherit" size="small" onClick={() => void query.refetch()}>
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
          <BudgetOverviewPanel overview={overview} filter={filter} onToggle={toggle} categoryName={categoryName} />
          <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', columnGap: 1, mb: 1, minHeight: 32 }}>
            <Typography variant="body2" role="status">
              {filter
                ? `Filtered by ${describeFilter(filter, overview)}: ${showingSomeText(shown.length, counts)}`
                : showingAllText(counts)}
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
            emptyText={filter ? 'No transactions match this filter.' : 'No transactions in this budget period.'}
            maxHeight={560}
            memoryKey={`budget-${budget.id}`}
          />
        </>
      )}
    </Box>
  );
}

/** Category key -> the name as the person wrote it on the first row with that key ("Uncategorized" for none). */
function categoryNamesOf(rows: readonly TransactionDto[]): (key: string) => string {
  const names = new Map<string, string>();
  for (const row of rows) {
    const key = transactionCategoryKey(row);
    if (!names.has(key)) names.set(key, row.category?.trim() || UNCATEGORIZED_LABEL);
  }
  return (key) => names.get(key) ?? key;
}
