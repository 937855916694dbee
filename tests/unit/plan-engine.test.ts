import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  neededFor,
  planMonth,
  planMonths,
  type CategoryMonth,
  type PlanCategory,
  type PlanInput,
} from '../../src/shared/plan/engine';
import { addMonths, isMonth, monthRange } from '../../src/shared/plan/months';

const food: PlanCategory = {
  id: 1,
  name: 'Food',
  kind: 'expense',
  hidden: false,
  rollsOverspendingFrom: null,
  target: null,
};
const rent: PlanCategory = { ...food, id: 2, name: 'Rent' };
const salary: PlanCategory = { ...food, id: 3, name: 'Salary', kind: 'income' };

function input(partial: Partial<PlanInput>): PlanInput {
  return { categories: [food, rent, salary], sums: [], assigned: [], held: [], ...partial };
}

function row(figures: ReturnType<typeof planMonth>, id: number): CategoryMonth {
  const found = figures.categories.find((category) => category.categoryId === id);
  if (!found) throw new Error(`no category ${id}`);
  return found;
}

describe('months', () => {
  it.each([
    ['2024-01', true],
    ['2024-12', true],
    ['2024-13', false],
    ['2024-00', false],
    ['0000-05', false],
    ['2024-1', false],
    ['2024-01-01', false],
  ])('%s is a month: %s', (text, valid) => {
    expect(isMonth(text)).toBe(valid);
  });

  it('steps across years and knows each month’s last day', () => {
    expect(addMonths('2024-12', 1)).toBe('2025-01');
    expect(addMonths('2024-01', -1)).toBe('2023-12');
    expect(addMonths('2024-03', -14)).toBe('2023-01');
    expect(monthRange('2024-02')).toEqual({ start: '2024-02-01', end: '2024-02-29' });
    expect(monthRange('2023-02')).toEqual({ start: '2023-02-01', end: '2023-02-28' });
    expect(monthRange('2024-12')).toEqual({ start: '2024-12-01', end: '2024-12-31' });
  });
});

describe('the plan of a month', () => {
  it('puts income into To Assign and takes assigned amounts out of it', () => {
    const plan = planMonth(
      input({
        sums: [
          { categoryId: 3, month: '2024-01', amount: 300_000, count: 1 },
          { categoryId: 1, month: '2024-01', amount: -20_000, count: 4 },
        ],
        assigned: [
          { categoryId: 1, month: '2024-01', amount: 50_000 },
          { categoryId: 2, month: '2024-01', amount: 100_000 },
        ],
      }),
      '2024-01',
    );
    expect(plan).toMatchObject({ month: '2024-01', income: 300_000, toAssign: 150_000, fromLastMonth: 0, held: 0 });
    expect(row(plan, 1)).toEqual({
      categoryId: 1,
      assigned: 50_000,
      activity: -20_000,
      carryover: 0,
      available: 30_000,
      rollsOverspending: false,
    });
    expect(plan.incomeCategories).toEqual([{ categoryId: 3, activity: 300_000 }]);
  });

  it('carries a positive balance over, and takes overspending from next month’s To Assign', () => {
    const data = input({
      sums: [
        { categoryId: 3, month: '2024-01', amount: 100_000, count: 1 },
        { categoryId: 1, month: '2024-01', amount: -60_000, count: 3 },
        { categoryId: 2, month: '2024-01', amount: -10_000, count: 1 },
      ],
      assigned: [
        { categoryId: 1, month: '2024-01', amount: 50_000 },
        { categoryId: 2, month: '2024-01', amount: 30_000 },
      ],
    });
    const february = planMonth(data, '2024-02');
    expect(row(february, 1)).toMatchObject({ carryover: 0, available: 0 });
    expect(row(february, 2)).toMatchObject({ carryover: 20_000, available: 20_000 });
    expect(february.overspentLastMonth).toBe(-10_000);
    expect(february.overspentFrom).toEqual([{ categoryId: 1, amount: -10_000 }]);
    expect(february.fromLastMonth).toBe(20_000);
    expect(february.toAssign).toBe(10_000);
  });

  it('carries overspending of a rolling category into its own next month, from the month it took effect', () => {
    const rolling = { ...food, rollsOverspendingFrom: '2024-02' };
    const data = input({
      categories: [rolling, rent, salary],
      sums: [
        { categoryId: 1, month: '2024-01', amount: -5_000, count: 1 },
        { categoryId: 1, month: '2024-02', amount: -7_000, count: 1 },
      ],
    });
    const [january, february, march] = planMonths(data, '2024-03');
    expect(row(january, 1)).toMatchObject({ available: -5_000, rollsOverspending: false });
    // January did not roll: February starts at 0 and To Assign pays for January.
    expect(row(february, 1)).toMatchObject({ carryover: 0, available: -7_000, rollsOverspending: true });
    expect(february.overspentLastMonth).toBe(-5_000);
    expect(row(march, 1)).toMatchObject({ carryover: -7_000, available: -7_000 });
    expect(march.overspentLastMonth).toBe(0);
    expect(march.toAssign).toBe(-5_000);
  });

  it('holds money for next month, where it comes back into To Assign', () => {
    const data = input({
      sums: [{ categoryId: 3, month: '2024-01', amount: 10_000, count: 1 }],
      held: [{ month: '2024-01', amount: 4_000 }],
    });
    const [january, february] = planMonths(data, '2024-02');
    expect(january).toMatchObject({ toAssign: 6_000, held: 4_000 });
    expect(february).toMatchObject({ toAssign: 10_000, fromLastMonth: 10_000, held: 0 });
  });

  it('counts a future assignment in that month only', () => {
    const data = input({
      sums: [{ categoryId: 3, month: '2024-01', amount: 10_000, count: 1 }],
      assigned: [{ categoryId: 1, month: '2024-03', amount: 4_000 }],
    });
    expect(planMonth(data, '2024-01').toAssign).toBe(10_000);
    expect(planMonth(data, '2024-02').toAssign).toBe(10_000);
    expect(planMonth(data, '2024-03').toAssign).toBe(6_000);
  });

  it('may go below zero when more is assigned than there is', () => {
    const data = input({ assigned: [{ categoryId: 2, month: '2024-05', amount: 1_000 }] });
    expect(planMonth(data, '2024-05').toAssign).toBe(-1_000);
  });

  it('keeps uncategorised money beside the plan, counted up to the month’s end', () => {
    const data = input({
      sums: [
        { categoryId: null, month: '2024-01', amount: -1_500, count: 2 },
        { categoryId: null, month: '2024-03', amount: 700, count: 1 },
      ],
    });
    expect(planMonth(data, '2024-02').uncategorized).toEqual({ count: 2, amount: -1_500 });
    expect(planMonth(data, '2024-03').uncategorized).toEqual({ count: 3, amount: -800 });
    expect(planMonth(data, '2023-12').uncategorized).toEqual({ count: 0, amount: 0 });
  });

  it('answers a month long after the last figure as the walk through every month would', () => {
    const rolling = { ...food, rollsOverspendingFrom: '2030-01' };
    const data = input({
      categories: [rolling, rent, salary],
      sums: [
        { categoryId: 3, month: '2024-01', amount: 10_000, count: 1 },
        { categoryId: 1, month: '2024-01', amount: -3_000, count: 1 },
        { categoryId: 2, month: '2024-01', amount: -2_000, count: 1 },
      ],
      assigned: [{ categoryId: 2, month: '2024-01', amount: 5_000 }],
      held: [{ month: '2024-01', amount: 1_000 }],
    });
    for (const month of ['2024-02', '2024-03', '2024-04', '2029-12', '2030-01', '2031-06']) {
      const walked = planMonths(data, month);
      expect(planMonth(data, month)).toEqual(walked[walked.length - 1]);
    }
  });
});

describe('what a target still needs', () => {
  const base: CategoryMonth = {
    categoryId: 1,
    assigned: 2_000,
    activity: -500,
    carryover: 3_000,
    available: 4_500,
    rollsOverspending: false,
  };
  it.each([
    ['monthly, part assigned', { type: 'monthly', amount: 5_000 } as const, base, 3_000],
    ['monthly, met', { type: 'monthly', amount: 1_000 } as const, base, 0],
    ['refill up to', { type: 'refill', amount: 10_000 } as const, base, 5_500],
    ['refill, full', { type: 'refill', amount: 4_000 } as const, base, 0],
    // 12,000 by June from May: 12,000 - 2,500 (without May's assignment) over 2 months = 4,750, 2,000 assigned.
    ['by a date', { type: 'byDate', amount: 12_000, date: '2024-06-15' } as const, base, 2_750],
    ['by a date already past', { type: 'byDate', amount: 12_000, date: '2024-01-01' } as const, base, 7_500],
    ['none', null, base, 0],
  ])('%s', (_label, target, month, needed) => {
    expect(neededFor(target, month, '2024-05')).toBe(needed);
  });
});

/** Generated households: categories (some rolling from a month), month sums, assignments and holds. */
const households = fc
  .record({
    categories: fc.array(
      fc.record({
        kind: fc.constantFrom('income', 'expense', 'expense'),
        rollsFrom: fc.option(fc.integer({ min: 0, max: 8 }), { nil: null }),
      }),
      { minLength: 1, maxLength: 6 },
    ),
    sums: fc.array(
      fc.record({
        category: fc.option(fc.nat(5), { nil: null }),
        month: fc.integer({ min: 0, max: 8 }),
        amount: fc.integer({ min: -500_000, max: 500_000 }),
        count: fc.integer({ min: 1, max: 9 }),
      }),
      { maxLength: 30 },
    ),
    assigned: fc.array(
      fc.record({
        category: fc.nat(5),
        month: fc.integer({ min: 0, max: 10 }),
        amount: fc.integer({ min: -50_000, max: 300_000 }),
      }),
      { maxLength: 20 },
    ),
    held: fc.array(fc.record({ month: fc.integer({ min: 0, max: 8 }), amount: fc.nat(100_000) }), { maxLength: 4 }),
  })
  .map(({ categories, sums, assigned, held }): PlanInput => {
    const list = categories.map((c, i): PlanCategory => ({
      ...food,
      id: i + 1,
      name: `c${i}`,
      kind: c.kind,
      rollsOverspendingFrom: c.rollsFrom === null ? null : addMonths('2024-01', c.rollsFrom),
    }));
    const idOf = (n: number) => (n % list.length) + 1;
    const heldByMonth = new Map(held.map((h) => [h.month, h.amount]));
    return {
      categories: list,
      sums: sums.map((s) => ({
        categoryId: s.category === null ? null : idOf(s.category),
        month: addMonths('2024-01', s.month),
        amount: s.amount,
        count: s.count,
      })),
      assigned: assigned
        .filter((a) => list[idOf(a.category) - 1]?.kind === 'expense')
        .map((a) => ({ categoryId: idOf(a.category), month: addMonths('2024-01', a.month), amount: a.amount })),
      held: [...heldByMonth].map(([month, amount]) => ({ month: addMonths('2024-01', month), amount })),
    };
  });

describe('the plan’s invariant', () => {
  it('every month: the sum of available, To Assign, held and the uncategorised line is all counted money to its end', () => {
    fc.assert(
      fc.property(households, fc.integer({ min: 0, max: 11 }), (data, last) => {
        const lastMonth = addMonths('2024-01', last);
        for (const figures of planMonths(data, lastMonth)) {
          const counted = data.sums
            .filter((sum) => sum.month <= figures.month)
            .reduce((total, sum) => total + sum.amount, 0);
          const available = figures.categories.reduce((total, c) => total + c.available, 0);
          expect(available + figures.toAssign + figures.held + figures.uncategorized.amount).toBe(counted);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a month answered on its own equals that month of the walk', () => {
    fc.assert(
      fc.property(households, fc.integer({ min: 0, max: 30 }), (data, last) => {
        const month = addMonths('2024-01', last);
        const walked = planMonths(data, month);
        expect(planMonth(data, month)).toEqual(walked[walked.length - 1]);
      }),
      { numRuns: 200 },
    );
  });
});
