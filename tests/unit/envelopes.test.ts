import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { categoryKeyOf, envelopeTransactions, parseCategoryList, summarizeEnvelope } from '../../src/shared/envelopes';
import { dedupeNames } from '../../src/shared/schemas/budgets';

interface Row {
  id: number;
  amount: number;
  category: string | null;
  isSplit: boolean;
  postDate: string;
}
function row(id: number, amount: number, category: string | null, postDate: string, isSplit = false): Row {
  return { id, amount, category, isSplit, postDate };
}

const rows = [
  row(1, -100, 'Fun', '2024-01-01'),
  row(2, -200, 'FUN ', '2024-02-01'),
  row(3, -300, 'fun', '2024-02-01', true), // split parent: never a member
  row(4, -400, null, '2024-02-02'),
  row(5, -500, 'Rent', '2024-02-03'),
  row(6, 50, 'fun', '2024-02-29'), // a refund
  row(7, -700, '', '2024-03-01'),
];

describe('envelopeTransactions', () => {
  it.each([
    ['one category, any case', ['fun'], {}, [1, 2, 6]],
    ['category list trimmed and any case', [' FUN '], {}, [1, 2, 6]],
    ['start date is inclusive', ['Fun'], { startDate: '2024-02-01' }, [2, 6]],
    ['end date is inclusive', ['Fun'], { endDate: '2024-02-01' }, [1, 2]],
    ['both bounds', ['fun'], { startDate: '2024-01-02', endDate: '2024-02-28' }, [2]],
    ['a single day', ['fun'], { startDate: '2024-02-29', endDate: '2024-02-29' }, [6]],
    ['inverted range is empty', ['fun'], { startDate: '2024-03-01', endDate: '2024-01-01' }, []],
    ['uncategorized catches null and empty', ['uncategorized'], {}, [4, 7]],
    ['several categories keep input order', ['rent', 'Uncategorized'], { endDate: '2024-02-03' }, [4, 5]],
    ['blank categories match nothing', [' ', ''], {}, []],
    ['no categories', [], {}, []],
    ['unknown category', ['Travel'], {}, []],
  ])('%s', (_label, categories, range, ids) => {
    expect(envelopeTransactions(rows, categories, range).map((r) => r.id)).toEqual(ids);
  });

  it('returns the same objects (with their extra fields)', () => {
    const [first] = envelopeTransactions(rows, ['fun']);
    expect(first).toBe(rows[0]);
  });

  it('members are exactly the non-parent rows with a listed key inside the range', () => {
    const arbRow = fc.record({
      id: fc.nat(),
      amount: fc.integer({ min: -1_000_000, max: 1_000_000 }),
      category: fc.constantFrom('Food', ' food', 'Rent', null, '', 'Gifts'),
      isSplit: fc.boolean(),
      postDate: fc.constantFrom('2024-01-01', '2024-01-15', '2024-01-31', '2024-02-01'),
    });
    fc.assert(
      fc.property(
        fc.array(arbRow, { maxLength: 40 }),
        fc.subarray(['FOOD', 'rent ', 'Uncategorized', 'gifts']),
        fc.option(fc.constantFrom('2024-01-01', '2024-01-15', '2024-02-01'), { nil: undefined }),
        fc.option(fc.constantFrom('2024-01-01', '2024-01-31', '2024-02-01'), { nil: undefined }),
        (txs, categories, startDate, endDate) => {
          const members = envelopeTransactions(txs, categories, { startDate, endDate });
          const keys = categories.map((c) => c.trim().toLowerCase());
          const expected = txs.filter(
            (t) =>
              !t.isSplit &&
              keys.includes(categoryKeyOf(t.category)) &&
              (startDate === undefined || t.postDate >= startDate) &&
              (endDate === undefined || t.postDate <= endDate),
          );
          expect(members).toEqual(expected);
          const summary = summarizeEnvelope(members);
          expect(summary).toEqual({
            transactionCount: expected.length,
            total: expected.reduce((s, t) => s + t.amount, 0),
          });
        },
      ),
    );
  });
});

describe('summarizeEnvelope', () => {
  it.each([
    ['fun members', envelopeTransactions(rows, ['fun']), { transactionCount: 3, total: -250 }],
    ['nothing', [], { transactionCount: 0, total: 0 }],
    ['money in', [{ amount: 1234 }, { amount: 1 }], { transactionCount: 2, total: 1235 }],
  ])('%s', (_label, members, expected) => {
    expect(summarizeEnvelope(members)).toEqual(expected);
  });
  it('refuses a total beyond the safe range', () => {
    expect(() => summarizeEnvelope([{ amount: Number.MAX_SAFE_INTEGER }, { amount: 1 }])).toThrow(RangeError);
  });
});

describe('parseCategoryList', () => {
  it.each([
    ['Food, dining,, FOOD ', ['Food', 'dining']],
    ['', []],
    ['   ', []],
    [',,,', []],
    [' a ,b', ['a', 'b']],
    ['Dining Out, dining out ,Groceries', ['Dining Out', 'Groceries']],
    ['Café, CAFÉ', ['Café']],
    ['single', ['single']],
  ])('%j -> %j', (text, expected) => {
    expect(parseCategoryList(text)).toEqual(expected);
  });

  it('yields trimmed, non-empty names, unique regardless of case, matching the schemas', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('Food', 'food', ' Rent ', '', ' ', 'Gifts', 'GIFTS', 'a b'), { maxLength: 12 }),
        (parts) => {
          const text = parts.join(',');
          const names = parseCategoryList(text);
          for (const name of names) expect(name).toBe(name.trim());
          expect(names.every((n) => n.length > 0)).toBe(true);
          expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
          expect(names).toEqual(dedupeNames(text.split(',')));
          expect(parseCategoryList(names.join(', '))).toEqual(names);
        },
      ),
    );
  });
});

describe('categoryKeyOf', () => {
  it.each([
    [null, 'uncategorized'],
    [undefined, 'uncategorized'],
    ['', 'uncategorized'],
    ['  ', 'uncategorized'],
    [' Fun ', 'fun'],
  ])('%j -> %j', (category, key) => {
    expect(categoryKeyOf(category)).toBe(key);
  });
});
