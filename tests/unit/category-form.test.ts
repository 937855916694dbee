import { describe, expect, it } from 'vitest';
import { readCategoryDraft, toCategoryDraft } from '../../src/client/features/categories/categoryForm';
import type { CategoryDto } from '../../src/shared/schemas/categories';

const category = (target: CategoryDto['target']): CategoryDto => ({
  id: 1,
  name: 'Groceries',
  kind: 'expense',
  hidden: false,
  rollsOverspendingFrom: null,
  target,
});

describe('the category form', () => {
  it.each<[string | null, number, string]>([
    [null, 40_000, '400.00'],
    ['USD', 40_000, '400.00'],
    ['JPY', 40_000, '40,000'],
    ['TND', 40_000, '40.000'],
  ])('shows and reads a target in the home currency %s', (currency, amount, shown) => {
    const draft = toCategoryDraft(category({ type: 'monthly', amount }), '2025-03', 'en-US', currency);
    expect(draft.targetAmount).toBe(shown);
    expect(readCategoryDraft(draft, 'en-US', currency)).toMatchObject({
      ok: true,
      input: { target: { type: 'monthly', amount } },
    });
  });

  it('reads a yen target typed without decimals as whole yen, not hundredths', () => {
    const draft = { ...toCategoryDraft(category(null), '2025-03', 'en-US', 'JPY'), targetType: 'refill' as const };
    expect(readCategoryDraft({ ...draft, targetAmount: '5000' }, 'en-US', 'JPY')).toMatchObject({
      ok: true,
      input: { target: { type: 'refill', amount: 5_000 } },
    });
    expect(readCategoryDraft({ ...draft, targetAmount: '5000' }, 'en-US', 'EUR')).toMatchObject({
      ok: true,
      input: { target: { type: 'refill', amount: 500_000 } },
    });
  });

  it('names the target field when the amount is missing or zero', () => {
    const draft = { ...toCategoryDraft(category(null), '2025-03', 'en-US'), targetType: 'monthly' as const };
    expect(readCategoryDraft({ ...draft, targetAmount: '0' }, 'en-US')).toMatchObject({
      ok: false,
      field: 'targetAmount',
    });
  });
});
