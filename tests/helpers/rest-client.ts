import type { BudgetDto, CreateBudgetInput, CreateLineItemInput, LineItemDto } from '../../src/shared/schemas/budgets';
import type { ImportProfileDto } from '../../src/shared/schemas/import';
import type { TransactionDto } from '../../src/shared/schemas/transactions';
import type { BudgetOverview } from '../../src/shared/budget';
import { rest } from './http';

/**
 * Typed REST calls for tests that set things up or check them through the REST door (calls the app's own
 * screens make go through tRPC). Each answers the body and throws on a refusal.
 */
export function restDataClient(baseUrl: string, token: string) {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await rest<T>(baseUrl, method, path, { token, body });
    if (res.status >= 400) throw new Error(`${method} ${path} refused (${res.status}): ${JSON.stringify(res.body)}`);
    return res.body;
  };
  return {
    transaction: (id: number) => call<TransactionDto>('GET', `/api/transactions/${id}`),
    deleteTransaction: (id: number) => call<{ message: string }>('DELETE', `/api/transactions/${id}`),
    createBudget: (input: CreateBudgetInput) => call<BudgetDto>('POST', '/api/budgets', input),
    createLineItem: (input: CreateLineItemInput) => call<LineItemDto>('POST', '/api/line-items', input),
    budgetOverview: (id: number) =>
      call<{ budget: BudgetDto; lineItems: LineItemDto[]; transactions: TransactionDto[]; overview: BudgetOverview }>(
        'GET',
        `/api/budgets/${id}/overview`,
      ),
    importProfile: (accountId: number) =>
      call<ImportProfileDto | null>('GET', `/api/accounts/${accountId}/import-profile`),
  };
}

export type RestDataClient = ReturnType<typeof restDataClient>;
