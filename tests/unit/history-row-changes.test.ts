import { describe, expect, it } from 'vitest';
import { describeRowChange, type HistoryNames } from '../../src/client/features/history/rowChanges';

const accounts = new Map([
  [1, { name: 'Checking', currency: 'USD' }],
  [2, { name: 'Yen card', currency: 'JPY' }],
  [3, { name: 'Dinar savings', currency: 'KWD' }],
]);
const names: HistoryNames = {
  account: (id) => accounts.get(id),
  category: (id) => ({ 7: 'Groceries', 8: 'Dining' })[id],
};
const row = (patch: Record<string, unknown>) => ({
  id: 5,
  post_date: '2025-01-03',
  description: 'Grocer',
  amount: -4210,
  account_id: 1,
  category_id: null,
  ...patch,
});

describe('a history row in words', () => {
  it.each<[number, number, string]>([
    [1, -4210, '−$42.10'],
    [2, -4210, '−¥4,210'],
    [3, -4210, '−KWD\u00a04.210'],
  ])('shows the amount of account %i in its currency', (account, amount, text) => {
    expect(describeRowChange(null, row({ account_id: account, amount }), names)).toBe(
      `Created 2025-01-03 Grocer ${text}`,
    );
  });

  it('names the accounts and categories a change moved a row between', () => {
    expect(describeRowChange(row({ category_id: 7 }), row({ category_id: 8, account_id: 2 }), names)).toBe(
      'Category: Groceries → Dining; Account: Checking → Yen card',
    );
  });

  it('says what changed in an amount in the row’s currency, and falls back to ids it cannot name', () => {
    expect(describeRowChange(row({ account_id: 2 }), row({ account_id: 2, amount: -500 }), names)).toBe(
      'Amount: −¥4,210 → −¥500',
    );
    expect(describeRowChange(row({ category_id: 99 }), row({ category_id: 7 }), names)).toBe(
      'Category: category 99 → Groceries',
    );
  });

  it('names a schedule’s occurrence by its date and an offered transfer by its rows, with their status', () => {
    const occurrence = { id: 4, schedule_id: 2, scheduled_date: '2025-04-01', amount: -120_000, status: 'upcoming' };
    expect(describeRowChange(null, occurrence, names)).toBe('Created occurrence of 2025-04-01 (upcoming)');
    expect(describeRowChange(occurrence, { ...occurrence, status: 'skipped' }, names)).toBe(
      'Status: upcoming → skipped',
    );
    const offer = { id: 9, first_id: 11, second_id: 12, score: 60, status: 'open' };
    expect(describeRowChange(offer, null, names)).toBe('Deleted offer of transactions 11 and 12 (open)');
  });
});
