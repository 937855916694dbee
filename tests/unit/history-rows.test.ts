import { describe, expect, it } from 'vitest';
import { packRows, setText, unpackRow } from '../../src/server/modules/history/history-rows';

/** Rows of history as stored, read back whole: a single row, a row kept as the columns set, and packed rows. */
const grocer = { id: 7, description: 'Grocer', category_id: 1, category_source: null, amount: -4210 };
const cafe = { id: 9, description: 'Cafe', category_id: null, category_source: 'rule', amount: -350 };
const set = setText({ category_id: 5, category_source: 'user' });
const whole = (image: object) => JSON.stringify(image);
const after = (image: object) => whole({ ...image, category_id: 5, category_source: 'user' });

describe('unpackRow', () => {
  it('gives a row stored whole as it is', () => {
    expect(unpackRow('transaction', '7', whole(grocer), null)).toEqual([
      { table: 'transaction', id: '7', before: whole(grocer), after: null },
    ]);
  });

  it('rebuilds the after image of a row stored as the columns set, in the columns’ order', () => {
    expect(unpackRow('transaction', '7', whole(grocer), set)).toEqual([
      { table: 'transaction', id: '7', before: whole(grocer), after: after(grocer) },
    ]);
  });

  it('gives each row of a packed row with both images whole, from a table of values (with the values rows share) or a list of images', () => {
    const expected = [grocer, cafe].map((image) => ({
      table: 'transaction',
      id: String(image.id),
      before: whole(image),
      after: after(image),
    }));
    const columns = Object.keys(grocer);
    const table = whole({ $columns: columns, $rows: [grocer, cafe].map((image) => Object.values(image)) });
    expect(unpackRow('transaction', '*', table, set)).toEqual(expected);
    const twins = [grocer, { ...grocer, id: 8, description: 'Grocer again' }];
    const withSame = whole({
      $columns: columns,
      $same: { category_id: 1, category_source: null, amount: -4210 },
      $rows: [
        [7, 'Grocer'],
        [8, 'Grocer again'],
      ],
    });
    expect(unpackRow('transaction', '*', withSame, set).map((row) => [row.before, row.after])).toEqual(
      twins.map((image) => [whole(image), after(image)]),
    );
    expect(unpackRow('transaction', '*', whole([grocer, cafe]), set)).toEqual(expected);
  });
});

describe('packRows', () => {
  it('packs rows set alike into one row that unpacks to each image, whatever order each image names its columns in', () => {
    const reordered = { amount: -350, id: 9, category_source: 'rule', description: 'Cafe', category_id: null };
    const twin = { ...grocer, id: 8, description: 'Grocer again' };
    const images = [grocer, reordered, twin];
    const packed = packRows(
      [],
      images.map((image) => ({ table: 'transaction', id: String(image.id), image, after: set })),
    );
    expect(packed).toHaveLength(1);
    const [row] = packed;
    expect(row?.id).toBe('*');
    expect(unpackRow('transaction', '*', row?.before ?? null, row?.after ?? null)).toEqual(
      [grocer, cafe, twin].map((image) => ({
        table: 'transaction',
        id: String(image.id),
        before: whole(image),
        after: after(image),
      })),
    );
  });
});
