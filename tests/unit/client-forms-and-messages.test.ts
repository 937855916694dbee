/** Pure client modules: server messages, table state, the transaction form, search and budget forms. */
import { describe, expect, it } from 'vitest';
import type { TransactionDto } from '../../src/shared/schemas/transactions';
import { fieldMessages, parseServerMessage, readableServerText, withReason } from '../../src/client/lib/serverText';
import {
  isTableMemory,
  nextControlIndex,
  originalsNote,
  restorableSelection,
  rowCounts,
  showingAllText,
  showingSomeText,
} from '../../src/client/components/transactions/tableState';
import {
  amountLocked,
  readDraft,
  signChange,
  signChangeQuestion,
} from '../../src/client/features/transactions/transactionForm';
import {
  buildFilters,
  EMPTY_FORM,
  emptyResultText,
  initialForm,
} from '../../src/client/features/transactions/searchForm';
import {
  categoriesTakenByOthers,
  emptyLineItem,
  sharedCategoryErrors,
  type LineItemDraft,
} from '../../src/client/features/budgets/budgetForm';

describe('server messages', () => {
  it.each([
    [
      'password: Password must be at least 8 characters',
      [{ path: 'password', message: 'Password must be at least 8 characters' }],
    ],
    [
      'username: Username is required; password: Password is required',
      [
        { path: 'username', message: 'Username is required' },
        { path: 'password', message: 'Password is required' },
      ],
    ],
    ['splits.0.amount: must be a number of cents', [{ path: 'splits.0.amount', message: 'must be a number of cents' }]],
    ['Transaction 5 not found', [{ path: '', message: 'Transaction 5 not found' }]],
    [
      "Category 'Food' is already related to line item 'A'; a category can belong to one line item of a budget",
      [
        {
          path: '',
          message:
            "Category 'Food' is already related to line item 'A'; a category can belong to one line item of a budget",
        },
      ],
    ],
    [
      "'Uncategorized' is reserved for transactions without a category: choose another name",
      [{ path: '', message: "'Uncategorized' is reserved for transactions without a category: choose another name" }],
    ],
    ['', []],
  ])('parses %j', (text, issues) => {
    expect(parseServerMessage(text)).toEqual(issues);
  });

  it('reads without prefixes', () => {
    expect(readableServerText('password: Password must be at least 8 characters')).toBe(
      'Password must be at least 8 characters',
    );
    expect(readableServerText('username: Username is required; password: Too short')).toBe(
      'Username is required. Too short.',
    );
    expect(readableServerText('endDate: Start date must not be after end date')).toBe(
      'Start date must not be after end date',
    );
  });

  it('puts messages under the fields they name, the rest aside', () => {
    expect(fieldMessages('password: Too short; apiToken: Bad token', ['username', 'password'])).toEqual({
      fields: { password: 'Too short' },
      rest: 'Bad token',
    });
    expect(fieldMessages('Invalid username or password', ['username', 'password'])).toEqual({
      fields: {},
      rest: 'Invalid username or password',
    });
  });

  it.each([
    [
      'Failed to update transaction',
      'Transaction 5 not found',
      'Failed to update transaction: Transaction 5 not found',
    ],
    [
      'Failed to update transactions. Please try again.',
      'Transaction 5 not found',
      'Failed to update transactions: Transaction 5 not found',
    ],
    ['Failed to update transaction', '', 'Failed to update transaction'],
    [
      'Failed to delete some transactions. Please try again.',
      '  ',
      'Failed to delete some transactions. Please try again.',
    ],
  ])('withReason(%j, %j)', (fallback, reason, expected) => {
    expect(withReason(fallback, reason)).toBe(expected);
  });
});

const tx = (id: number, isSplit = false): Pick<TransactionDto, 'id' | 'isSplit'> => ({ id, isSplit });

describe('table state', () => {
  it('accepts only well-formed memories', () => {
    expect(isTableMemory({ selected: [1, 2], focusId: 2 })).toBe(true);
    expect(isTableMemory({ selected: [], focusId: null })).toBe(true);
    for (const bad of [
      null,
      'x',
      { selected: 'x', focusId: null },
      { selected: [1.5], focusId: null },
      { selected: [], focusId: 'a' },
      { selected: [] },
    ]) {
      expect(isTableMemory(bad)).toBe(false);
    }
  });

  it('restores the remembered rows that are shown, once any of them is there', () => {
    const memory = { selected: [1, 2, 9], focusId: 2 };
    expect(restorableSelection(memory, [])).toBeNull();
    expect(restorableSelection(memory, [tx(5)])).toBeNull();
    expect(restorableSelection(memory, [tx(1), tx(2), tx(3)])).toEqual(new Set([1, 2]));
    expect(restorableSelection({ selected: [], focusId: 3 }, [tx(3)])).toEqual(new Set());
  });

  it.each([
    [[tx(1), tx(2)], 'Showing all 2 transactions', 'showing 1 of 2 transactions', null],
    [[tx(1)], 'Showing all 1 transaction', 'showing 1 of 1 transaction', null],
    [
      [tx(1, true), tx(2), tx(3), tx(4)],
      'Showing all 4 rows: 3 transactions counted in the totals and 1 split original (their parts are counted instead)',
      'showing 1 of 4 rows',
      '1 split original not counted in the total (their parts are)',
    ],
  ])('counts %j', (rows, all, some, note) => {
    const counts = rowCounts(rows);
    expect(showingAllText(counts)).toBe(all);
    expect(showingSomeText(1, counts)).toBe(some);
    expect(originalsNote(counts)).toBe(note);
  });

  it.each([
    [0, 4, 'ArrowRight', 1],
    [3, 4, 'ArrowRight', 3],
    [2, 4, 'ArrowLeft', 1],
    [0, 4, 'ArrowLeft', 0],
    [1, 4, 'ArrowDown', null],
    [0, 0, 'ArrowRight', null],
  ])('nextControlIndex(%d, %d, %s) = %j', (current, count, key, expected) => {
    expect(nextControlIndex(current, count, key)).toBe(expected);
  });
});

describe('the transaction form', () => {
  const draft = {
    postDate: '2024-03-05',
    description: ' Coffee ',
    amount: '-7,03',
    category: '',
    account: '',
    type: 'charge' as const,
  };

  it('reads the draft with the shared parser', () => {
    expect(readDraft(draft, 'en-US')).toEqual({
      ok: true,
      value: { postDate: '2024-03-05', description: 'Coffee', amount: -703, category: null },
    });
  });

  it('names every problem at its field', () => {
    expect(
      readDraft({ ...draft, postDate: '', description: ' ', amount: '7 euros', category: ' uncategorized' }, 'en-US'),
    ).toEqual({
      ok: false,
      errors: {
        postDate: 'Date is required',
        description: 'Description is required',
        amount: 'Enter an amount like -12.50',
        category: "'uncategorized' is reserved for transactions without a category: leave the category empty instead",
      },
    });
    expect(readDraft({ ...draft, amount: '' }, 'en-US')).toMatchObject({
      ok: false,
      errors: { amount: 'Amount is required' },
    });
  });

  it.each([
    [-703, 1250, 'toIncome'],
    [1250, -703, 'toExpense'],
    [-703, -1250, null],
    [0, 500, null],
    [500, 0, null],
  ])('signChange(%d, %d) = %j', (before, after, expected) => {
    expect(signChange(before, after)).toBe(expected);
  });

  it('asks in words', () => {
    expect(signChangeQuestion('toIncome', '-7.03', '12.50', 'charge')).toBe(
      "This turns an expense into income: -7.03 becomes 12.50. Its type stays 'charge' unless you change Type.",
    );
    expect(signChangeQuestion('toExpense', '12.50', '-7.03', 'credit')).toContain('This turns income into an expense');
  });

  it('locks the amount of split parents and parts only', () => {
    expect(amountLocked(null)).toBe(false);
    expect(amountLocked({ isSplit: false, parentTransactionId: null })).toBe(false);
    expect(amountLocked({ isSplit: true, parentTransactionId: null })).toBe(true);
    expect(amountLocked({ isSplit: false, parentTransactionId: 4 })).toBe(true);
  });
});

describe('the search form', () => {
  it('opens on this month', () => {
    expect(initialForm('2024-02-10')).toMatchObject({
      startDate: '2024-02-01',
      endDate: '2024-02-29',
      minAmount: '',
      maxAmount: '',
    });
  });

  it('reads bounds as sizes in the browser locale, and names a bad one', () => {
    const form = { ...EMPTY_FORM, startDate: '2024-01-01', endDate: '2024-01-31' };
    expect(buildFilters({ ...form, minAmount: '-150', maxAmount: '-50' })).toEqual({
      ok: true,
      filters: { startDate: '2024-01-01', endDate: '2024-01-31', minAmount: 5000, maxAmount: 15000 },
    });
    expect(buildFilters({ ...form, minAmount: '1.234,50' }, 'de-DE')).toMatchObject({
      ok: true,
      filters: { minAmount: 123450 },
    });
    expect(buildFilters({ ...form, minAmount: 'abc' })).toEqual({
      ok: false,
      field: 'minAmount',
      message: 'Enter an amount like -12.50',
    });
    expect(buildFilters({ ...form, maxAmount: '5x' })).toEqual({
      ok: false,
      field: 'maxAmount',
      message: 'Enter an amount like -12.50',
    });
  });

  it('says which sizes an empty result was searched for', () => {
    const base = { startDate: '2024-01-01', endDate: '2024-01-31' };
    expect(emptyResultText(null)).toBe('No transactions match these filters.');
    expect(emptyResultText(base)).toBe('No transactions match these filters.');
    expect(emptyResultText({ ...base, maxAmount: 500 })).toBe(
      'No transactions of size up to $5.00 (either sign) match these filters.',
    );
    expect(emptyResultText({ ...base, minAmount: 500 })).toBe(
      'No transactions of size $5.00 or more (either sign) match these filters.',
    );
    expect(emptyResultText({ ...base, minAmount: 5000, maxAmount: 15000 })).toBe(
      'No transactions of size $50.00 to $150.00 (either sign) match these filters.',
    );
  });
});

describe('line items sharing a category', () => {
  const item = (name: string, relatedCategories: string): LineItemDraft => ({
    ...emptyLineItem(),
    name,
    relatedCategories,
  });

  it('names the category and the line item that has it, at the later item', () => {
    const food = item('Food', 'Groceries, Dining');
    const variable = item('Variable', 'coffee, groceries');
    const other = item('', 'DINING, GROCERIES');
    expect(sharedCategoryErrors([food, variable, other])).toEqual({
      [variable.key]: 'groceries is already in line item 1: Food (a category can belong to one line item)',
      [other.key]:
        'DINING is already in line item 1: Food; GROCERIES is already in line item 1: Food (a category can belong to one line item)',
    });
    expect(sharedCategoryErrors([food, item('Fun', 'Cinema')])).toEqual({});
  });

  it('tells each item which categories the others have', () => {
    const food = item('Food', 'Groceries');
    const fun = item('', 'Cinema');
    const taken = categoriesTakenByOthers([food, fun]);
    expect([...taken[food.key]]).toEqual([['cinema', 'line item 2']]);
    expect([...taken[fun.key]]).toEqual([['groceries', 'line item 1: Food']]);
  });
});
