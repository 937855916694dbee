import { describe, expect, it } from 'vitest';
import {
  computeBudgetOverview,
  UNTRACKED_ID,
  type OverviewLineItem,
  type OverviewTransaction,
} from '../../src/shared/budget';
import {
  amountToCents,
  appendCategory,
  buildSaveInput,
  canSubmit,
  DEFAULT_LINE_ITEM_TYPE,
  draftFromLineItem,
  emptyLineItem,
  splitCategories,
  type BudgetDraft,
  type LineItemDraft,
} from '../../src/client/features/budgets/budgetForm';
import {
  applyOverviewFilter,
  describeFilter,
  sameFilter,
  toggleFilter,
  type OverviewFilter,
} from '../../src/client/features/budgets/overviewFilter';

function row(patch: Partial<LineItemDraft> = {}): LineItemDraft {
  return { ...emptyLineItem(), name: 'Food', amount: '250', relatedCategories: 'Groceries', ...patch };
}
function draft(patch: Partial<BudgetDraft> = {}): BudgetDraft {
  return { name: 'January', startDate: '2024-01-01', endDate: '2024-01-31', lineItems: [], ...patch };
}

describe('budget form', () => {
  it.each([
    ['all filled', draft(), true],
    ['blank name', draft({ name: '   ' }), false],
    ['no start date', draft({ startDate: '' }), false],
    ['no end date', draft({ endDate: '' }), false],
  ])('canSubmit: %s', (_label, value, expected) => {
    expect(canSubmit(value)).toBe(expected);
  });

  it.each([
    ['', []],
    [' Groceries ,, dining , ', ['Groceries', 'dining']],
    ['A,B', ['A', 'B']],
  ])('splitCategories(%j)', (text, expected) => {
    expect(splitCategories(text)).toEqual(expected);
  });

  it.each([
    ['', 'Groceries', 'Groceries'],
    ['Groceries', 'Dining', 'Groceries, Dining'],
    ['Groceries, Dining', 'dining', 'Groceries, Dining'],
    [' Groceries ,, ', '  ', 'Groceries'],
  ])('appendCategory(%j, %j)', (text, name, expected) => {
    expect(appendCategory(text, name)).toBe(expected);
  });

  // The shared amount parser on the text as typed (no binary floating-point drift: 19.99 -> 1999).
  it.each([
    ['1.234,56', 123456],
    ['-100,50', -10050],
    ['12abc', null],
    ['19.99', 1999],
    ['1234.5', 123450],
    ['0.01', 1],
    ['-5', -500],
    ['0.004', 0],
    ['2.675', 268],
    ['', null],
    ['  ', null],
    ['abc', null],
    ['Infinity', null],
  ])('amountToCents(%j) = %j', (text, expected) => {
    expect(amountToCents(text)).toBe(expected);
  });

  it('a new line item defaults to Variable', () => {
    expect(DEFAULT_LINE_ITEM_TYPE).toBe('Variable');
    expect(emptyLineItem()).toMatchObject({ name: '', amount: '', type: 'Variable', relatedCategories: '' });
  });

  it('draftFromLineItem keeps the id for Edit Budget and drops it for Copy Budget', () => {
    const saved = {
      id: 7,
      name: 'Rent',
      amount: 120050,
      type: 'Fixed' as const,
      relatedCategories: ['Rent', 'Housing'],
    };
    expect(draftFromLineItem(saved, true)).toMatchObject({
      id: 7,
      name: 'Rent',
      amount: '1,200.50',
      type: 'Fixed',
      relatedCategories: 'Rent, Housing',
    });
    expect(draftFromLineItem(saved, true, 'de-DE')).toMatchObject({ amount: '1.200,50' });
    expect(draftFromLineItem(saved, false)).not.toHaveProperty('id');
  });

  it('buildSaveInput converts the form into one budgets.save call', () => {
    const result = buildSaveInput(
      draft({
        name: '  January  ',
        lineItems: [
          row({ id: 3, amount: '19.99', type: 'Fixed', relatedCategories: ' Rent , ,Housing ' }),
          row({ name: ' Fun ', amount: '25' }),
        ],
      }),
      42,
      [9],
    );
    expect(result).toEqual({
      ok: true,
      input: {
        id: 42,
        name: 'January',
        startDate: '2024-01-01',
        endDate: '2024-01-31',
        lineItems: [
          { id: 3, name: 'Food', amount: 1999, type: 'Fixed', relatedCategories: ['Rent', 'Housing'] },
          { name: 'Fun', amount: 2500, type: 'Variable', relatedCategories: ['Groceries'] },
        ],
        deletedLineItemIds: [9],
      },
    });
  });

  it('reads and shows line items in the home currency’s decimals (none for yen)', () => {
    const result = buildSaveInput(draft({ lineItems: [row({ amount: '50,000' })] }), undefined, [], 'en-US', 'JPY');
    expect(result).toMatchObject({ ok: true, input: { lineItems: [{ amount: 50000 }] } });
    const saved = { id: 1, name: 'Rent', amount: 120000, type: 'Fixed' as const, relatedCategories: ['Rent'] };
    expect(draftFromLineItem(saved, true, 'en-US', 'JPY')).toMatchObject({ amount: '120,000' });
    expect(amountToCents('1.5', 'en-US', 'BHD')).toBe(1500);
  });

  it('buildSaveInput refuses missing fields, dates out of order and incomplete line items', () => {
    const bad = row({ name: ' ', amount: 'x', relatedCategories: '' });
    const empty = row({ amount: '', relatedCategories: 'Rent' });
    const result = buildSaveInput(
      draft({ name: '', startDate: '2024-02-01', endDate: '2024-01-01', lineItems: [bad, empty, row()] }),
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        name: 'Budget name is required',
        endDate: 'Start date must not be after end date',
        lineItems: {
          [bad.key]: { name: 'Line item name is required', amount: 'Enter an amount like -12.50' },
          [empty.key]: { amount: 'Amount is required' },
        },
      },
    });
    expect(buildSaveInput(draft({ startDate: '', endDate: '' }))).toMatchObject({
      ok: false,
      errors: { startDate: 'Start date is required', endDate: 'End date is required' },
    });
  });
});

describe('overview filter', () => {
  const tx = (
    id: number,
    amount: number,
    category: string | null,
    extra: Partial<OverviewTransaction> = {},
  ): OverviewTransaction => ({
    id,
    amount,
    category,
    type: amount < 0 ? 'debit' : 'credit',
    isSplit: false,
    parentTransactionId: null,
    ...extra,
  });
  const lineItems: OverviewLineItem[] = [
    { id: 1, name: 'Pay', type: 'Income', amount: 100000, relatedCategories: ['Salary'] },
    { id: 2, name: 'Food', type: 'Variable', amount: 20000, relatedCategories: ['groceries'] },
  ];
  const rows = [
    tx(1, 100000, 'Salary'),
    tx(2, -3000, 'GROCERIES', { type: 'charge' }),
    tx(3, -5000, 'Groceries', { isSplit: true }),
    tx(4, -2000, 'Groceries', { parentTransactionId: 3 }),
    tx(5, -3000, 'Fun', { parentTransactionId: 3 }),
    tx(6, -700, null),
  ];
  const overview = computeBudgetOverview(rows, lineItems);
  const ids = (filter: OverviewFilter) => applyOverviewFilter(rows, filter, lineItems, overview).map((r) => r.id);

  it.each<[string, OverviewFilter, number[], string]>([
    ['none', null, [1, 2, 3, 4, 5, 6], ''],
    ['type debit (split parent left out)', { kind: 'type', type: 'debit' }, [4, 5, 6], 'Type: debit'],
    ['type charge', { kind: 'type', type: 'charge' }, [2], 'Type: charge'],
    ['line item, any case, parent left out', { kind: 'lineItem', id: 2 }, [2, 4], 'Line item: Food'],
    ['Untracked: unrelated and uncategorized', { kind: 'lineItem', id: UNTRACKED_ID }, [5, 6], 'Line item: Untracked'],
    ['split: parent and parts', { kind: 'split' }, [3, 4, 5], 'Split transactions'],
    ['unknown line item', { kind: 'lineItem', id: 99 }, [], 'Line item: unknown'],
  ])('%s', (_label, filter, expected, description) => {
    expect(ids(filter)).toEqual(expected);
    expect(describeFilter(filter, overview)).toBe(description);
  });

  it('clicking the active selection clears it; another one replaces it', () => {
    const food = { kind: 'lineItem', id: 2 } as const;
    const debit = { kind: 'type', type: 'debit' } as const;
    expect(toggleFilter(null, food)).toEqual(food);
    expect(toggleFilter(food, { kind: 'lineItem', id: 2 })).toBeNull();
    expect(toggleFilter(food, debit)).toEqual(debit);
    expect(toggleFilter(debit, { kind: 'split' })).toEqual({ kind: 'split' });
    expect(toggleFilter({ kind: 'split' }, { kind: 'split' })).toBeNull();
    expect(sameFilter(debit, { kind: 'type', type: 'credit' })).toBe(false);
    expect(sameFilter(null, null)).toBe(true);
  });
});
