import { describe, expect, it } from 'vitest';
import { splitRequest, type SplitDraftRow } from '../../src/client/components/transactions/splitDraft';

const row = (amount: string, category: string, description = '', splitNote = ''): SplitDraftRow => ({
  key: 0,
  amount,
  category,
  description,
  splitNote,
});

describe('the split dialog rows -> the split to send', () => {
  it.each<[string, number, SplitDraftRow[], ReturnType<typeof splitRequest>]>([
    [
      'money out: parts carry the parent sign; text is trimmed, blank text left out',
      -10000,
      [row('60.00', ' Food ', '  ', ' lunch '), row('40', 'Fun', ' Cinema ')],
      {
        ok: true,
        splits: [
          { amount: -6000, category: 'Food', splitNote: 'lunch' },
          { amount: -4000, category: 'Fun', description: 'Cinema' },
        ],
      },
    ],
    [
      'money in',
      5000,
      [row('25', 'A'), row('25', 'B')],
      {
        ok: true,
        splits: [
          { amount: 2500, category: 'A' },
          { amount: 2500, category: 'B' },
        ],
      },
    ],
    [
      'rows without a category or amount are not parts',
      -3000,
      [row('10', 'A'), row('20', 'B'), row('', 'C'), row('5', '  '), row('abc', 'D')],
      {
        ok: true,
        splits: [
          { amount: -1000, category: 'A' },
          { amount: -2000, category: 'B' },
        ],
      },
    ],
    [
      'fewer than two parts',
      -3000,
      [row('30', 'A'), row('', '')],
      { ok: false, message: expect.any(String) as unknown as string },
    ],
    [
      'parts that do not add up',
      -3000,
      [row('10', 'A'), row('10', 'B')],
      { ok: false, message: expect.any(String) as unknown as string },
    ],
  ])('%s', (_name, parentAmount, rows, expected) =>
    expect(splitRequest(rows, parentAmount, 'en-US')).toEqual(expected),
  );

  it('names the sum a yen split must reach in whole yen', () => {
    expect(splitRequest([row('1000', 'A'), row('400', 'B')], -1500, 'en-US', 'JPY')).toEqual({
      ok: false,
      message: 'Split amounts must sum to 1500',
    });
  });
});
