import { describe, expect, it } from 'vitest';
import {
  availableTone,
  monthTitle,
  neighbourMonths,
  OTHER_GROUP,
  planGroups,
  targetProgress,
  withAssigned,
} from '../../src/shared/plan/view';
import type { PlanCategoryDto, PlanDto } from '../../src/shared/schemas/plan';

function category(partial: Partial<PlanCategoryDto> & { category: number }): PlanCategoryDto {
  return {
    name: `c${partial.category}`,
    envelope: null,
    hidden: false,
    assigned: 0,
    activity: 0,
    carryover: 0,
    available: 0,
    rollsOverspending: false,
    target: null,
    needed: 0,
    ...partial,
  };
}

function plan(categories: PlanCategoryDto[], partial: Partial<PlanDto> = {}): PlanDto {
  const sum = (pick: (row: PlanCategoryDto) => number) => categories.reduce((total, row) => total + pick(row), 0);
  return {
    month: '2024-03',
    currency: 'USD',
    noRate: 0,
    toAssign: 10_000,
    income: 0,
    fromLastMonth: 0,
    overspentLastMonth: 0,
    overspentFrom: [],
    assigned: sum((row) => row.assigned),
    activity: sum((row) => row.activity),
    available: sum((row) => row.available),
    held: 0,
    holdable: 10_000,
    categories,
    incomeCategories: [],
    uncategorized: { count: 0, amount: 0 },
    moves: [],
    ...partial,
  };
}

describe('planGroups', () => {
  it('puts categories under their envelopes by name, those in none under Other last, keeping the order within', () => {
    const groups = planGroups([
      category({ category: 1, envelope: 'Needs' }),
      category({ category: 2 }),
      category({ category: 3, envelope: 'bills' }),
      category({ category: 4, envelope: 'Needs' }),
    ]);
    expect(groups.map((g) => [g.name, g.categories.map((c) => c.category)])).toEqual([
      ['bills', [3]],
      ['Needs', [1, 4]],
      [OTHER_GROUP, [2]],
    ]);
  });

  it('answers no group for no categories', () => {
    expect(planGroups([])).toEqual([]);
  });
});

describe('availableTone', () => {
  it.each([
    [1, 'positive'],
    [0, 'zero'],
    [-1, 'overspent'],
  ] as const)('%s is %s', (available, tone) => {
    expect(availableTone(available)).toBe(tone);
  });
});

describe('targetProgress', () => {
  it.each([
    ['no target', category({ category: 1 }), null],
    [
      'monthly, half assigned',
      category({
        category: 1,
        assigned: 5000,
        available: 9000,
        target: { type: 'monthly', amount: 10_000 },
        needed: 5000,
      }),
      { percent: 50, needed: 5000, underfunded: true },
    ],
    [
      'refill, available over the amount',
      category({ category: 1, available: 12_000, target: { type: 'refill', amount: 10_000 } }),
      { percent: 100, needed: 0, underfunded: false },
    ],
    [
      'by a date, overspent',
      category({
        category: 1,
        available: -100,
        target: { type: 'byDate', amount: 10_000, date: '2024-12-31' },
        needed: 1200,
      }),
      { percent: 0, needed: 1200, underfunded: true },
    ],
  ])('%s', (_label, row, expected) => {
    expect(targetProgress(row)).toEqual(expected);
  });
});

describe('withAssigned', () => {
  const food = category({ category: 1, assigned: 1000, activity: -400, available: 600 });
  const rent = category({
    category: 2,
    assigned: 5000,
    available: 5000,
    target: { type: 'monthly', amount: 6000 },
    needed: 1000,
  });

  it('moves the category, the totals and To Assign by the difference', () => {
    const before = plan([food, rent], { toAssign: 4000, held: 500, holdable: 4500 });
    const after = withAssigned(before, 1, 2500);
    expect(after.categories[0]).toMatchObject({ assigned: 2500, activity: -400, available: 2100 });
    expect(after.categories[1]).toBe(rent);
    expect(after).toMatchObject({ assigned: 7500, available: 7100, toAssign: 2500, holdable: 3000 });
    // Every dollar is still somewhere: available + To Assign is unchanged.
    expect(after.available + after.toAssign).toBe(before.available + before.toAssign);
  });

  it("recomputes the category's need for its target", () => {
    expect(withAssigned(plan([rent]), 2, 6000).categories[0]?.needed).toBe(0);
    expect(withAssigned(plan([rent]), 2, 2000).categories[0]?.needed).toBe(4000);
  });

  it('lets To Assign go negative and holds nothing then', () => {
    const after = withAssigned(plan([food], { toAssign: 100, holdable: 100 }), 1, 2000);
    expect(after.toAssign).toBe(-900);
    expect(after.holdable).toBe(0);
  });

  it('answers the same plan for an unknown category or no change', () => {
    const before = plan([food]);
    expect(withAssigned(before, 99, 5)).toBe(before);
    expect(withAssigned(before, 1, 1000)).toBe(before);
  });
});

describe('months on screen', () => {
  it('names the month and its neighbours across a year end', () => {
    expect(monthTitle('2024-12', 'en-US')).toBe('December 2024');
    expect(monthTitle('nonsense', 'en-US')).toBe('nonsense');
    expect(neighbourMonths('2024-12')).toEqual({ previous: '2024-11', next: '2025-01' });
    expect(neighbourMonths('2024-01')).toEqual({ previous: '2023-12', next: '2024-02' });
  });
});
