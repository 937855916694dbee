/**
 * Finding the two sides of transfers among imported rows. A pair is a row of the new batch and an
 * unlinked row of another account with the opposite amount, dated at most `windowDays` apart.
 * A pair is linked at once only when nothing else could be meant:
 * - its description names the account of the other side (the account's name, or the last four
 *   digits of a number in it), and it is the only pair of both rows named that strongly; or
 * - it is the only pair either row has, at most two days apart, and no description names a third account.
 * Every other pair is offered (the surest few per row), never linked silently.
 */
import { toDayNumber } from '../dates/calendar';
import { foldText } from '../text/fold';

export interface MatchRow {
  id: number;
  accountId: number;
  postDate: string;
  amount: number;
  /** The texts an account's name may be in. */
  description?: string;
}

export interface MatchAccount {
  id: number;
  name: string;
}

export interface PairFound {
  /** The side with money out, then the side with money in. */
  fromId: number;
  toId: number;
  /** 0-100: how sure the match is. */
  score: number;
  reason: string;
}

export interface TransferMatches {
  linked: PairFound[];
  offered: PairFound[];
}

/** Days apart the only pair of two rows may be and still be linked without a name. */
export const UNIQUE_LINK_DAYS = 2;
/** Pairs offered per imported row at most (the surest). */
export const OFFERS_PER_ROW = 3;

/** How a description can name an account: its name's words, and the last four digits of each number in it. */
interface AccountNames {
  id: number;
  name: string;
  words: string;
  digits: string[];
}

const words = (text: string) =>
  ` ${foldText(text)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()} `;

function accountNames(account: MatchAccount): AccountNames {
  const digits = [...account.name.matchAll(/\d{4,}/g)].map((m) => m[0].slice(-4));
  return { id: account.id, name: account.name, words: words(account.name), digits: [...new Set(digits)] };
}

/** True when a description names the account: its name as whole words, or a number ending in its last four digits. */
export function namesAccount(description: string, account: MatchAccount): boolean {
  return describes(words(description), description, accountNames(account));
}

function describes(descriptionWords: string, description: string, account: AccountNames): boolean {
  if (account.words.trim() !== '' && descriptionWords.includes(account.words)) return true;
  if (account.digits.length === 0) return false;
  for (const run of description.matchAll(/\d{4,}/g)) if (account.digits.includes(run[0].slice(-4))) return true;
  return false;
}

interface Side {
  id: number;
  accountId: number;
  amount: number;
  day: number;
  fresh: boolean;
  description: string;
  /** The description's words, made when first needed. */
  words: string | null;
}

interface Edge {
  a: Side;
  b: Side;
  days: number;
  /** How many of the two descriptions name the other side's account (0-2), once known. */
  named: number;
  /** Which descriptions named it, for the reason (null until the descriptions are read). */
  naming: string[] | null;
}

/**
 * Pairs the rows of a new batch (`fresh`) with the unlinked rows of the user's other accounts
 * (`others`, which should reach 2 × windowDays beyond the batch's dates, and hold the batch
 * account's older rows too, so every row's own rivals are seen). `isDismissed` says which pairs a
 * person already turned down. All at once; TransferMatcher does the same in steps.
 */
export function matchTransfers(
  fresh: readonly MatchRow[],
  others: readonly MatchRow[],
  accounts: readonly MatchAccount[],
  windowDays: number,
  isDismissed: (a: number, b: number) => boolean = () => false,
): TransferMatches {
  const matcher = new TransferMatcher(accounts, windowDays, isDismissed);
  matcher.add(fresh, true);
  matcher.add(others, false);
  matcher.link(fresh);
  matcher.offer(fresh);
  return matcher.result;
}

/**
 * The matching in steps a caller may pause between: add every row (the index by amount), then link
 * the batch's rows, then offer what is left, each over slices of the rows in any order. The rows
 * added need only be the batch's rows that pair, their counterparts and the counterparts' rivals:
 * no other row changes a decision.
 */
export class TransferMatcher {
  readonly result: TransferMatches = { linked: [], offered: [] };
  private readonly names: ReadonlyMap<number, AccountNames>;
  private readonly byAmount = new Map<number, Side[]>();
  private readonly sides = new Map<number, Side>();
  private readonly edgesOf = new Map<number, Edge[]>();
  private readonly taken = new Set<number>();
  private readonly days = new Map<string, number>();

  constructor(
    accounts: readonly MatchAccount[],
    private readonly windowDays: number,
    private readonly isDismissed: (a: number, b: number) => boolean = () => false,
  ) {
    this.names = new Map(accounts.map((account) => [account.id, accountNames(account)]));
  }

  private dayOf(postDate: string): number {
    let day = this.days.get(postDate);
    if (day === undefined) this.days.set(postDate, (day = toDayNumber(postDate)));
    return day;
  }

  /** Indexes rows by amount: a row's candidates are the rows under the opposite amount. */
  add(rows: readonly MatchRow[], fresh: boolean): void {
    for (const row of rows) {
      if (row.amount === 0) continue;
      const side: Side = {
        id: row.id,
        accountId: row.accountId,
        amount: row.amount,
        day: this.dayOf(row.postDate),
        fresh,
        description: row.description ?? '',
        words: null,
      };
      if (fresh) this.sides.set(row.id, side);
      const list = this.byAmount.get(row.amount);
      if (list) list.push(side);
      else this.byAmount.set(row.amount, [side]);
    }
  }

  /** Links the pairs of these batch rows that nothing else could be meant by. */
  link(rows: readonly MatchRow[]): void {
    for (const { id } of rows) {
      const row = this.sides.get(id);
      if (!row || this.taken.has(id)) continue;
      const mine = this.named(this.edgeList(row));
      const best = surest(mine);
      if (!best || this.taken.has(best.b.id)) continue;
      const theirs = this.named(this.edgeList(best.b));
      const why = linkReason(best, mine, theirs, surest(theirs), this.names);
      if (why === null) continue;
      this.taken.add(row.id);
      this.taken.add(best.b.id);
      this.result.linked.push(found(best, why));
    }
  }

  /** Offers the surest few pairs of each of these batch rows that is still unlinked (after every link step). */
  offer(rows: readonly MatchRow[]): void {
    for (const { id } of rows) {
      if (this.taken.has(id)) continue;
      const open = this.named(this.edgesOf.get(id) ?? []).filter((e) => !this.taken.has(e.b.id));
      open.sort((x, y) => score(y) - score(x) || x.days - y.days || x.b.id - y.b.id);
      for (const e of open.slice(0, OFFERS_PER_ROW)) this.result.offered.push(found(e, offerReason(e, open.length)));
    }
  }

  private edgeList(row: Side): Edge[] {
    let list = this.edgesOf.get(row.id);
    if (list) return list;
    list = NO_EDGES;
    for (const other of this.byAmount.get(-row.amount) ?? []) {
      const days = Math.abs(other.day - row.day);
      if (other.accountId === row.accountId || days > this.windowDays) continue;
      if (this.isDismissed(row.id, other.id)) continue;
      if (list === NO_EDGES) list = [];
      list.push({ a: row, b: other, days, named: 0, naming: null });
    }
    this.edgesOf.set(row.id, list);
    return list;
  }

  /** The edges with how their descriptions name the accounts worked out. */
  private named(edges: Edge[]): Edge[] {
    for (const e of edges) if (e.naming === null) nameEdge(e, this.names);
    return edges;
  }
}

/** The edges of a row that has none (most rows): one shared empty list. */
const NO_EDGES: Edge[] = [];

function wordsOf(side: Side): string {
  return (side.words ??= words(side.description));
}

function nameEdge(e: Edge, names: ReadonlyMap<number, AccountNames>): void {
  const naming: string[] = [];
  const accountOfB = names.get(e.b.accountId);
  const accountOfA = names.get(e.a.accountId);
  if (accountOfB && describes(wordsOf(e.a), e.a.description, accountOfB))
    naming.push(`'${e.a.description.trim()}' names ${accountOfB.name}`);
  if (accountOfA && describes(wordsOf(e.b), e.b.description, accountOfA))
    naming.push(`'${e.b.description.trim()}' names ${accountOfA.name}`);
  e.naming = naming;
  e.named = naming.length;
}

/** The one most strongly named edge of a row (ties: none). */
function surest(edges: readonly Edge[]): Edge | null {
  let best: Edge | null = null;
  let tie = false;
  for (const e of edges) {
    if (!best || e.named > best.named) {
      best = e;
      tie = false;
    } else if (e.named === best.named) tie = true;
  }
  return tie ? null : best;
}

/** Why a pair may be linked at once, or null when it must be offered. */
function linkReason(
  best: Edge,
  mine: readonly Edge[],
  theirs: readonly Edge[],
  theirBest: Edge | null,
  names: ReadonlyMap<number, AccountNames>,
): string | null {
  if (!theirBest || theirBest.b.id !== best.a.id) return null;
  if (best.named > 0) return `${(best.naming ?? []).join('; ')}; ${apart(best.days)}`;
  if (mine.length !== 1 || theirs.length !== 1 || best.days > UNIQUE_LINK_DAYS) return null;
  if (namesThirdAccount(best, names)) return null;
  return `the only row of the opposite amount on both sides, ${apart(best.days)}`;
}

/** True when either description names an account other than the pair's two. */
function namesThirdAccount(e: Edge, names: ReadonlyMap<number, AccountNames>): boolean {
  for (const account of names.values()) {
    if (account.id === e.a.accountId || account.id === e.b.accountId) continue;
    if (describes(wordsOf(e.a), e.a.description, account) || describes(wordsOf(e.b), e.b.description, account))
      return true;
  }
  return false;
}

function apart(days: number): string {
  return days === 0 ? 'the same day' : `${days} day${days === 1 ? '' : 's'} apart`;
}

function score(e: Edge): number {
  return Math.max(0, Math.min(100, 40 + 25 * e.named - 3 * e.days));
}

function offerReason(e: Edge, rivals: number): string {
  const parts = [`opposite amount ${apart(e.days)}`, ...(e.naming ?? [])];
  if (rivals > 1)
    parts.push(`${rivals - 1} other row${rivals === 2 ? '' : 's'} of the same amount could be the other side`);
  return parts.join('; ');
}

function found(e: Edge, reason: string): PairFound {
  const [from, to] = e.a.amount < 0 ? [e.a, e.b] : [e.b, e.a];
  return { fromId: from.id, toId: to.id, score: score(e), reason };
}
