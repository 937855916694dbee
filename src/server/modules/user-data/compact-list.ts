import type { CheckedList } from '../../../shared/schemas/user-data';

/** Rows a block of the columns holds: blocks are added as rows come, never copied. */
const BLOCK_ROWS = 16 * 1024;

/**
 * The facts of a long list's rows (the numbers the checks across rows read), `width` numbers a row in typed-array
 * blocks, instead of an object a row: a list of millions of rows takes `width` numbers a row (8 bytes each in a
 * Float64Array, 4 in an Int32Array for small whole numbers). The checks read it a row at a time through `entries`,
 * which makes each row's object as it is read (garbage at once).
 */
export class CompactList<T> implements CheckedList<T> {
  private readonly blocks: (Float64Array | Int32Array)[] = [];
  length = 0;

  constructor(
    private readonly width: number,
    private readonly row: (values: Float64Array | Int32Array, at: number) => T,
    private readonly Block: Float64ArrayConstructor | Int32ArrayConstructor = Float64Array,
  ) {}

  push(...values: number[]): void {
    const at = this.length % BLOCK_ROWS;
    if (at === 0) this.blocks.push(new this.Block(BLOCK_ROWS * this.width));
    this.blocks[this.blocks.length - 1]?.set(values, at * this.width);
    this.length += 1;
  }

  *entries(): IterableIterator<[number, T]> {
    for (let i = 0; i < this.length; i += 1) {
      const block = this.blocks[Math.floor(i / BLOCK_ROWS)];
      if (block) yield [i, this.row(block, (i % BLOCK_ROWS) * this.width)];
    }
  }
}

/** An id, or -1 for none (ids are positive). */
export const idOrNone = (id: number | null): number => id ?? -1;
export const idOf = (value: number | undefined): number | null => (value === undefined || value < 0 ? null : value);

/** Small texts (currency pairs, months) numbered in the order they first come, so a row keeps a number. */
export class TextNumbers {
  private readonly numbers = new Map<string, number>();
  private readonly texts: string[] = [];

  numberOf(text: string): number {
    let n = this.numbers.get(text);
    if (n === undefined) {
      n = this.texts.length;
      this.numbers.set(text, n);
      this.texts.push(text);
    }
    return n;
  }

  textOf(n: number): string {
    return this.texts[n] ?? '';
  }
}
