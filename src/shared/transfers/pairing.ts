/**
 * The first sieve of transfer detection, over many rows at once: which rows of the batch's account
 * have a row of the opposite amount in another account within the window, which rows those are
 * (the counterparts), and which other rows could be a counterpart's other side instead (its rivals).
 * Rows come as columns (the i-th amount, day and account of each), as the database reads them;
 * only the few rows found here are then read whole and matched (match.ts).
 */

/** Rows as columns: the i-th entry of each list belongs to the same row. */
export interface RowColumns {
  amounts: ArrayLike<number>;
  /** Days since 1970-01-01 (toDayNumber). */
  days: ArrayLike<number>;
  accounts: ArrayLike<number>;
}

export interface PairingSieve {
  /** Positions in `own` of its rows that have a counterpart. */
  own: number[];
  /** Positions in `others` of the counterparts. */
  counterparts: number[];
  /** Positions in `others` of the counterparts' rivals (not counterparts themselves). */
  rivals: number[];
}

/**
 * Positions of rows by amount: a hash table of the first position of each amount (open addressing
 * over typed arrays) and a chain from each position to the next of the same amount, so a hundred
 * thousand rows take three arrays rather than an entry each in a Map.
 */
export class AmountChains {
  private readonly keys: Float64Array;
  private readonly heads: Int32Array;
  private readonly next: Int32Array;
  private readonly mask: number;

  constructor(amounts: ArrayLike<number>) {
    let size = 16;
    while (size < amounts.length * 2) size *= 2;
    this.mask = size - 1;
    this.keys = new Float64Array(size);
    this.heads = new Int32Array(size).fill(-1);
    this.next = new Int32Array(amounts.length).fill(-1);
    for (let i = amounts.length - 1; i >= 0; i -= 1) {
      const amount = amounts[i] as number;
      const slot = this.slotOf(amount);
      if (this.heads[slot] !== -1) this.next[i] = this.heads[slot] as number;
      this.keys[slot] = amount;
      this.heads[slot] = i;
    }
  }

  /** The slot holding `amount`, or the empty slot where it would go. */
  private slotOf(amount: number): number {
    // Amounts are whole numbers of minor units, up to 2^53: both halves of the number go into the hash.
    const high = Math.floor(amount / 4_294_967_296);
    let slot = (Math.imul(amount | 0, 0x9e3779b1) ^ Math.imul(high, 0x85ebca6b)) & this.mask;
    while (this.heads[slot] !== -1 && this.keys[slot] !== amount) slot = (slot + 1) & this.mask;
    return slot;
  }

  /** The first position holding `amount` (-1: none); then `after` walks the others. */
  firstOf(amount: number): number {
    return this.heads[this.slotOf(amount)] as number;
  }

  /** The next position holding the same amount as `position` (-1: no more). */
  after(position: number): number {
    return this.next[position] as number;
  }
}

/**
 * Sieves the batch account's rows (`own`: the batch's and the account's older rows of its dates)
 * against `others`: the other accounts' rows dated up to two windows beyond the batch, so every
 * counterpart's rivals are among them or in `own`.
 */
export function sievePairs(own: RowColumns, others: RowColumns, windowDays: number): PairingSieve {
  const byAmount = new AmountChains(own.amounts);
  const paired = new Uint8Array(own.amounts.length);
  const counterparts: number[] = [];
  for (let j = 0; j < others.amounts.length; j += 1) {
    const day = others.days[j] as number;
    const account = others.accounts[j] as number;
    let found = false;
    for (let k = byAmount.firstOf(-(others.amounts[j] as number)); k >= 0; k = byAmount.after(k)) {
      if (Math.abs((own.days[k] as number) - day) > windowDays || own.accounts[k] === account) continue;
      paired[k] = 1;
      found = true;
    }
    if (found) counterparts.push(j);
  }
  const ownRows: number[] = [];
  for (let k = 0; k < paired.length; k += 1) if (paired[k]) ownRows.push(k);
  return { own: ownRows, counterparts, rivals: rivalsAmong(others, counterparts, windowDays) };
}

/** Rows of `rows` that could be the other side of one of `counterparts` (positions in `rows`). */
function rivalsAmong(rows: RowColumns, counterparts: readonly number[], windowDays: number): number[] {
  if (counterparts.length === 0) return [];
  const wanted = new AmountChains(counterparts.map((j) => -(rows.amounts[j] as number)));
  const isCounterpart = new Uint8Array(rows.amounts.length);
  for (const j of counterparts) isCounterpart[j] = 1;
  const rivals: number[] = [];
  for (let j = 0; j < rows.amounts.length; j += 1) {
    if (isCounterpart[j]) continue;
    for (let c = wanted.firstOf(rows.amounts[j] as number); c >= 0; c = wanted.after(c)) {
      const counterpart = counterparts[c] as number;
      if (rows.accounts[counterpart] === rows.accounts[j]) continue;
      if (Math.abs((rows.days[counterpart] as number) - (rows.days[j] as number)) > windowDays) continue;
      rivals.push(j);
      break;
    }
  }
  return rivals;
}
