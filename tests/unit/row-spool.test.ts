import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RowSpool } from '../../src/server/modules/user-data/row-spool';

/** The spool a restore keeps its transactions' texts in between reading the document and writing the rows. */
let dir: string | undefined;
let spool: RowSpool | undefined;

afterEach(async () => {
  await spool?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  spool = dir = undefined;
});

async function readBack<T>(from: RowSpool, count: number): Promise<T[][]> {
  const slices: T[][] = [];
  for await (const slice of from.slices<T>(count)) slices.push(slice);
  return slices;
}

describe('RowSpool', () => {
  it('gives the rows back in their order and slices, texts of any length and script intact', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'bt-spool-'));
    spool = await RowSpool.create(dir);
    // Long rows cross the spool's chunks anywhere, also inside a character of several bytes.
    const rows = Array.from({ length: 3001 }, (_, i) => [i, `Zürich 東京 ${'€'.repeat(i % 97)} "quoted"\nline`, null]);
    for (const [i, row] of rows.entries()) {
      spool.add(row);
      if (i % 100 === 0) await spool.flushIfFull();
    }
    const slices = await readBack<unknown[]>(spool, 500);
    expect(slices.map((slice) => slice.length)).toEqual([500, 500, 500, 500, 500, 500, 1]);
    expect(slices.flat()).toEqual(rows);
  });

  it('leaves no file in the folder, even while it is open', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'bt-spool-'));
    spool = await RowSpool.create(dir);
    expect(readdirSync(dir)).toEqual([]);
    spool.add(['kept']);
    expect((await readBack<string[]>(spool, 10)).flat()).toEqual([['kept']]);
  });

  it('falls back to the temporary folder when the data folder cannot be written', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'bt-spool-'));
    const file = path.join(dir, 'a-file');
    writeFileSync(file, '');
    spool = await RowSpool.create(path.join(file, 'below-a-file'));
    spool.add([1]);
    expect((await readBack<number[]>(spool, 10)).flat()).toEqual([[1]]);
  });

  it('answers no slice for no rows', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'bt-spool-'));
    spool = await RowSpool.create(dir);
    expect(await readBack(spool, 10)).toEqual([]);
  });
});
