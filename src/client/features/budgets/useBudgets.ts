import type { BudgetDto, LineItemDto } from '../../../shared/schemas/budgets';
import { trpc } from '../../lib/trpc';

export const FETCH_BUDGETS_ERROR = 'Failed to fetch budgets or line items. Please try again.';

const EMPTY: LineItemDto[] = [];

export interface BudgetWithItems {
  budget: BudgetDto;
  lineItems: LineItemDto[];
}

/**
 * All the user's budgets, then each budget's line items. Any failure gives one message
 * (FETCH_BUDGETS_ERROR).
 */
export function useBudgetsWithLineItems() {
  const list = trpc.budgets.list.useQuery();
  const budgets = list.data;
  const itemQueries = trpc.useQueries((t) =>
    (budgets ?? []).map((budget) => t.budgets.lineItems({ budgetId: budget.id })),
  );

  const loading = list.isLoading || itemQueries.some((query) => query.isLoading);
  const failed = list.isError || itemQueries.some((query) => query.isError);
  const ready = Boolean(budgets) && !loading && !failed;
  // Each budget's line-item array keeps its identity between renders (query data).
  const rows: BudgetWithItems[] = (budgets ?? []).map((budget, i) => ({
    budget,
    lineItems: itemQueries[i]?.data ?? EMPTY,
  }));

  async function retry() {
    await list.refetch();
    await Promise.all(itemQueries.filter((query) => query.isError).map((query) => query.refetch()));
  }

  return { rows, loading, error: failed ? FETCH_BUDGETS_ERROR : null, ready, retry };
}
