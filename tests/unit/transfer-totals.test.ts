import { describe, expect, it } from 'vitest';
import { computeBudgetOverview, type OverviewTransaction } from '../../src/shared/budget';
import { groupOverviewTransactions, overviewFromGroups } from '../../src/shared/budget/overview-groups';
import { searchTotal, transfersLeftOutNote } from '../../src/client/features/transactions/searchForm';
import type { TransactionDto } from '../../src/shared/schemas/transactions';

const row = (id: number, amount: number, transferId: number | null, category = 'Food'): OverviewTransaction => ({
  id,
  amount,
  category,
  type: amount < 0 ? 'debit' : 'credit',
  isSplit: false,
  parentTransactionId: null,
  transferId,
});

describe('transfers between accounts in totals', () => {
  const rows = [row(1, 300_000, null, 'Salary'), row(2, -4_500, null), row(3, -50_000, 9), row(4, 50_000, 9)];
  const lineItems = [
    { id: 1, name: 'Pay', amount: 300_000, type: 'Income' as const, relatedCategories: ['Salary'] },
    { id: 2, name: 'Food', amount: 10_000, type: 'Variable' as const, relatedCategories: ['Food'] },
  ];

  it('leaves both sides out of the budget overview, from rows or from grouped sums alike', () => {
    const fromRows = computeBudgetOverview(rows, lineItems);
    expect(fromRows).toMatchObject({ total: 295_500, transactionCount: 2 });
    const { groups, countedRows } = groupOverviewTransactions(rows);
    expect(overviewFromGroups(groups, countedRows, lineItems)).toEqual(fromRows);
  });

  it('leaves them out of the search total and says how many', () => {
    const dtos = rows.map((r) => ({ ...r, transferId: r.transferId ?? null }) as TransactionDto);
    expect(searchTotal(dtos)).toEqual({ cents: 295_500, text: 'Net: +$2,955.00', transfersLeftOut: 2 });
    expect(transfersLeftOutNote(2)).toBe(' (2 transfers between accounts left out)');
    expect(transfersLeftOutNote(1)).toBe(' (1 transfer between accounts left out)');
    expect(transfersLeftOutNote(0)).toBe('');
  });

  it('counts a pair between the plan and an off-plan account once, on its on-plan side', () => {
    const side = (id: number, amount: number, transferId: number, own: boolean, other: boolean) => ({
      ...row(id, amount, transferId, 'Investing'),
      accountOnBudget: own,
      transferCounterpartOnBudget: other,
    });
    const mixed = [
      row(1, 300_000, null, 'Salary'),
      side(2, -20_000, 7, true, false),
      side(3, 20_000, 7, false, true),
      side(4, -5_000, 8, false, false),
      side(5, 5_000, 8, false, false),
    ];
    const dtos = mixed.map((r) => r as TransactionDto);
    expect(searchTotal(dtos)).toEqual({ cents: 280_000, text: 'Net: +$2,800.00', transfersLeftOut: 3 });
    const fromRows = computeBudgetOverview(mixed, lineItems);
    expect(fromRows).toMatchObject({ total: 280_000, transactionCount: 2 });
    const { groups, countedRows } = groupOverviewTransactions(mixed);
    expect(overviewFromGroups(groups, countedRows, lineItems)).toEqual(fromRows);
  });
});
