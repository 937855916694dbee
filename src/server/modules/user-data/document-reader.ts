/**
 * Reads an "all my data" document as its bytes arrive, a row at a time, instead of parsing tens of megabytes in
 * one call: `@streamparser/json` tokenizes a slice of bytes per step and hands over each row of each list as soon
 * as it is complete; the row is checked against its list's schema (USER_DATA_LISTS) and kept in its checked form,
 * and the raw text and objects are never held whole. A transaction (the list that grows with years of use) is
 * kept in two parts: its facts (ids, amount, date; what the checks across rows need) in memory, and its texts in a
 * spool on disk that the restore reads back, so memory does not grow with the length of the descriptions. The
 * other long lists (transfers, offered pairs, rates, the plan's assigned amounts and moves) go to spools of their
 * own whole, their facts kept as numbers (CompactList). The lists held as objects (accounts, categories, budgets,
 * rules, schedules...) may weigh HELD_MAX_BYTES of the document together, and a row of a spooled list ROW_MAX_BYTES:
 * past either the document is refused (413) before the rest is read, as it is past a list's most rows (400).
 * The body is read no faster than the spools are written. Then the problems across rows (userDataProblemSteps) are
 * looked for in steps. The event loop turns between steps, so other requests are answered meanwhile.
 */
import { TokenParser, Tokenizer, TokenType } from '@streamparser/json';
import type { ParsedElementInfo, ParsedTokenInfo } from '@streamparser/json';
import { z } from 'zod';
import { AppError, describeIssues, type ValidationIssue } from '../../../shared/errors';
import { runStepsAsync } from '../../../shared/csv/steps';
import {
  dayNumber,
  dayOfNumber,
  IMPORT_PROFILES_REFUSED,
  PLAN_LISTS,
  USER_DATA_LISTS,
  userDataHeadShape,
  type PlanListName,
  userDataProblemSteps,
  type CheckedDocument,
  type ExportedTransaction,
  transactionFacts,
  type UserDataListName,
  type AssignedFacts,
  type CandidateFacts,
  type MoveFacts,
  type RateFacts,
  type TransferFacts,
} from '../../../shared/schemas/user-data';
import { pause } from '../../common/pause';
import { RowSpool } from './row-spool';
import { CompactList, idOf, idOrNone, TextNumbers } from './compact-list';

/** Bytes tokenized in one step (well under a millisecond of work). */
const SLICE_BYTES = 16 * 1024;
/** Nesting deeper than any document has (root, list, row, a rule's conditions, ...): refused, not followed. */
const MAX_DEPTH = 12;
/** Problems named in the answer. */
const MAX_ISSUES = 20;
/**
 * Short texts that repeat from row to row (dates, types, timestamps, batch ids) are kept once: the parser makes a
 * new copy of each, and a document of 270,000 rows held a few dozen megabytes of them. Longer texts and the
 * distinct texts past this many are kept as they come.
 */
const SHARED_TEXT_MAX_LENGTH = 40;
const SHARED_TEXTS_MAX = 200_000;

const NOT_JSON = 'Request body is not valid JSON';

/**
 * JSON the lists held as objects (every list but the spooled ones, and the values that are not lists) may take
 * together: far more than a person's accounts, categories, budgets, rules and schedules come to, and few enough
 * that their objects stay well inside the server's memory.
 */
export const HELD_MAX_BYTES = 24 * 1024 * 1024;
/** Values (texts, numbers, objects, lists...) the lists held as objects may hold together: each is a pointer or more. */
export const HELD_MAX_VALUES = 2_000_000;
/**
 * Values one budget may hold (in one field: its line items with the categories each names): a row is built whole
 * and checked in one step, and a budget's texts are checked slowly enough that 250,000 of them hold the event loop.
 * No person's budget comes near it.
 */
export const BUDGET_MAX_VALUES = 50_000;
/** JSON one row of a spooled list may take (the parser builds a row whole before it is checked). */
export const ROW_MAX_BYTES = 1024 * 1024;
/**
 * Bytes one value (a text, a number) or the space between two may take: the tokenizer gathers a value whole before
 * it hands it over, and no value of a document comes near this.
 */
export const VALUE_MAX_BYTES = 1024 * 1024;

/** The lists kept in spools (the whole checked row, or a transaction's texts), their facts as numbers. */
const SPOOLED_LISTS = ['transactions', 'transfers', 'transferCandidates', 'rates'] as const;
const SPOOLED_PLAN_LISTS = ['assigned', 'moves'] as const;
export type SpooledList = (typeof SPOOLED_LISTS)[number] | `plan.${(typeof SPOOLED_PLAN_LISTS)[number]}`;
const isSpooled = (key: string | null) => (SPOOLED_LISTS as readonly (string | null)[]).includes(key);
const isSpooledPlanList = (key: string | null) => (SPOOLED_PLAN_LISTS as readonly (string | null)[]).includes(key);

/** A restore's spool files, one a spooled list, made before the document is read and closed after it is written. */
export class DocumentSpools {
  private constructor(readonly of: Record<SpooledList, RowSpool>) {}

  static async create(dir: string): Promise<DocumentSpools> {
    const spools: Partial<Record<SpooledList, RowSpool>> = {};
    try {
      for (const list of [...SPOOLED_LISTS, ...SPOOLED_PLAN_LISTS.map((name) => `plan.${name}` as const)])
        spools[list] = await RowSpool.create(dir);
    } catch (error) {
      await Promise.all(Object.values(spools).map((spool) => spool.close()));
      throw error;
    }
    return new DocumentSpools(spools as Record<SpooledList, RowSpool>);
  }

  async flushIfFull(): Promise<void> {
    for (const spool of Object.values(this.of)) await spool.flushIfFull();
  }

  async close(): Promise<void> {
    await Promise.all(Object.values(this.of).map((spool) => spool.close()));
  }
}

/** The facts kept of each spooled list but the transactions. */
function factLists() {
  const currencies = new TextNumbers();
  const months = new TextNumbers();
  return {
    transfers: new CompactList<TransferFacts>(3, (v, at) => ({
      id: v[at] ?? 0,
      transactionIds: [v[at + 1] ?? 0, v[at + 2] ?? 0],
    })),
    transferCandidates: new CompactList<CandidateFacts>(2, (v, at) => ({
      transactionIds: [v[at] ?? 0, v[at + 1] ?? 0],
    })),
    rates: new CompactList<RateFacts>(
      3,
      (v, at) => ({
        date: dayOfNumber(v[at] ?? 0),
        base: currencies.textOf(v[at + 1] ?? 0),
        quote: currencies.textOf(v[at + 2] ?? 0),
      }),
      Int32Array,
    ),
    'plan.assigned': new CompactList<AssignedFacts>(2, (v, at) => ({
      categoryId: v[at] ?? 0,
      month: months.textOf(v[at + 1] ?? 0),
    })),
    'plan.moves': new CompactList<MoveFacts>(2, (v, at) => ({
      fromCategoryId: idOf(v[at]),
      toCategoryId: idOf(v[at + 1]),
    })),
    currencies,
    months,
  };
}

/**
 * What a transaction holds beyond its facts, as it waits in the spool: description, bank description, split note,
 * memo, creation time, category source and cleared state. A list rather than an object: no names to write and read.
 */
export type TransactionTexts = [
  string,
  string | null,
  string | null,
  string | null,
  string | null,
  ExportedTransaction['categorySource'],
  ExportedTransaction['cleared'] | null,
];

function transactionTexts(t: ExportedTransaction): TransactionTexts {
  return [
    t.description,
    t.bankDescription ?? null,
    t.splitNote,
    t.memo ?? null,
    t.createdAt ?? null,
    t.categorySource ?? null,
    t.cleared ?? null,
  ];
}
const isList = (key: string): key is UserDataListName => Object.hasOwn(USER_DATA_LISTS, key);
const isPlanList = (key: string): key is PlanListName => Object.hasOwn(PLAN_LISTS, key);
const isHead = (key: string): key is keyof typeof userDataHeadShape => Object.hasOwn(userDataHeadShape, key);

/** The plan as it reaches the top level, its lists' rows taken out (they were checked one at a time). */
const planShellSchema = z
  .object({ assigned: z.array(z.never()), moves: z.array(z.never()), holds: z.array(z.never()) })
  .strict();

class DocumentReader {
  private readonly tokenizer = new Tokenizer();
  private readonly parser = new TokenParser({ paths: ['$.*', '$.*.*', '$.plan.*.*'], keepStack: false });
  private depth = 0;
  private rootSeen = false;
  /** The first problem that makes reading on pointless (not JSON, too deep); the rest of the body is only drained. */
  private fatal: string | null = null;
  /** A fatal problem is a 413 (too large to hold) rather than a 400. */
  private fatalTooLarge = false;
  readonly issues: ValidationIssue[] = [];
  readonly top = new Map<string, unknown>();
  readonly rows = new Map<UserDataListName, unknown[]>();
  readonly planRows = new Map<PlanListName, unknown[]>();
  private readonly facts = factLists();
  private readonly counts = new Map<string, number>();
  private readonly texts = new Map<string, string>();
  /** The key at the top level (and in the plan) whose value the tokens now belong to, as the tokenizer sees it. */
  private key: string | null = null;
  private planKey: string | null = null;
  private expectsKey = false;
  private planExpectsKey = false;
  private lastOffset = 0;
  private heldBytes = 0;
  private heldValues = 0;
  /** Values of the held row's field (or plan row) being read: counted from the last comma at depth 3 or less. */
  private heldRowValues = 0;
  /** Bytes given to the tokenizer so far. */
  private received = 0;
  private rowBytes = 0;

  constructor(private readonly spools: DocumentSpools) {
    this.tokenizer.onToken = (token: ParsedTokenInfo) => {
      this.rootSeen = true;
      this.weigh(token);
      if (token.token === TokenType.LEFT_BRACE || token.token === TokenType.LEFT_BRACKET) {
        if (++this.depth > MAX_DEPTH) throw new Error(`nested deeper than ${MAX_DEPTH} levels`);
        if (this.depth === 1 && token.token !== TokenType.LEFT_BRACE) throw new Error('not an object');
      } else if (token.token === TokenType.RIGHT_BRACE || token.token === TokenType.RIGHT_BRACKET) this.depth -= 1;
      else if (this.depth === 0) throw new Error('not an object');
      this.parser.write(token);
    };
    this.parser.onValue = (info: ParsedElementInfo) => this.take(info);
    // A body cut off before its end leaves the parser mid-value: its end() throws. Anything after the document is
    // a token the ended parser refuses.
    this.tokenizer.onEnd = () => {
      if (!this.parser.isEnded) this.parser.end();
    };
    this.parser.onEnd = () => undefined;
  }

  /**
   * Counts a token's bytes (from the one before) against what they may take once parsed: a row of a spooled list
   * against ROW_MAX_BYTES, anything else against HELD_MAX_BYTES for the whole document (and its values against
   * HELD_MAX_VALUES, and a budget's against BUDGET_MAX_VALUES). Called before the token
   * moves the depth, so the depth is the token's place: 1 for the top level's keys and values, 2 inside a list.
   */
  private weigh(token: ParsedTokenInfo): void {
    const bytes = token.offset - this.lastOffset;
    this.lastOffset = token.offset;
    const depth = this.depth;
    const opens = token.token === TokenType.LEFT_BRACE || token.token === TokenType.LEFT_BRACKET;
    if (depth === 0 && opens) this.expectsKey = true;
    if (depth === 1) {
      if (token.token === TokenType.COMMA) this.expectsKey = true;
      else if (this.expectsKey && token.token === TokenType.STRING) {
        this.key = String(token.value);
        this.planKey = null;
        this.expectsKey = false;
      }
      if (opens && this.key === 'plan') this.planExpectsKey = token.token === TokenType.LEFT_BRACE;
    }
    if (depth === 2 && this.key === 'plan') {
      if (token.token === TokenType.COMMA) this.planExpectsKey = true;
      else if (this.planExpectsKey && token.token === TokenType.STRING) {
        this.planKey = String(token.value);
        this.planExpectsKey = false;
      }
    }
    const rowDepth = isSpooled(this.key) ? 2 : this.key === 'plan' && isSpooledPlanList(this.planKey) ? 3 : 0;
    if (rowDepth > 0 && depth >= rowDepth) {
      if (depth === rowDepth && token.token === TokenType.COMMA) this.rowBytes = 0;
      else if ((this.rowBytes += bytes) > ROW_MAX_BYTES)
        this.tooLarge(
          `a row of ${this.planKey ? `plan.${this.planKey}` : this.key} is larger than ${mb(ROW_MAX_BYTES)}`,
        );
      return;
    }
    this.rowBytes = 0;
    if (token.token === TokenType.COMMA && depth <= 3) this.heldRowValues = 0;
    if (token.token !== TokenType.COMMA && token.token !== TokenType.COLON && !closes(token)) {
      this.heldValues += 1;
      this.heldRowValues += 1;
    }
    if ((this.heldBytes += bytes) > HELD_MAX_BYTES || this.heldValues > HELD_MAX_VALUES)
      this.tooLarge(
        `its lists other than ${SPOOLED_LISTS.join(', ')} and the plan's ${SPOOLED_PLAN_LISTS.join(' and ')} hold more than ${mb(HELD_MAX_BYTES)} or ${HELD_MAX_VALUES} values together`,
      );
    else if (this.key === 'budgets' && this.heldRowValues > BUDGET_MAX_VALUES)
      this.tooLarge(`a budget holds more than ${BUDGET_MAX_VALUES} values`);
  }

  private tooLarge(why: string): void {
    this.fatal ??= `The document is too large to restore: ${why}. Nothing was changed.`;
    this.fatalTooLarge = true;
  }

  /** Whether more bytes are worth parsing: the first problem refuses the document, the rest is only drained. */
  get reading(): boolean {
    return this.fatal === null && this.issues.length === 0;
  }

  write(bytes: Uint8Array): void {
    try {
      this.tokenizer.write(bytes);
    } catch (error) {
      this.fail(error);
    }
    this.received += bytes.byteLength;
    if (this.reading && this.received - this.lastOffset > VALUE_MAX_BYTES)
      this.tooLarge(`it holds a value (or space between two) longer than ${mb(VALUE_MAX_BYTES)}`);
  }

  end(): void {
    if (!this.reading) return;
    try {
      this.tokenizer.end();
    } catch (error) {
      this.fail(error);
    }
  }

  private fail(error: unknown): void {
    if (this.fatal !== null) return;
    const cause = error instanceof Error ? error.message : String(error);
    this.fatal = /nested deeper|not an object/.test(cause) ? `${NOT_JSON} object of lists (${cause})` : NOT_JSON;
  }

  /**
   * A row of a list (depth 2) or of one of the plan's lists (depth 3), or a top-level value (depth 1, a list's
   * array by then emptied of its rows). A row is taken out of its list, so the parser never holds the rows it has
   * handed over.
   */
  private take({ value, key, parent, stack }: ParsedElementInfo): void {
    if (!this.reading) return;
    const at = stack.map((frame) => String(frame.key));
    if (stack.length === 3 && at[1] === 'plan') {
      if (!Array.isArray(parent)) return;
      parent.length -= 1;
      const list = at[2] ?? '';
      if (isPlanList(list)) this.keep(`plan.${list}`, ['plan', list, Number(key)], PLAN_LISTS[list], value);
      return;
    }
    if (stack.length === 2) {
      if (!Array.isArray(parent)) return;
      parent.length -= 1;
      const list = at[1] ?? '';
      if (isList(list)) this.keep(list, [list, Number(key)], USER_DATA_LISTS[list], value);
      return;
    }
    this.topValue(String(key), value);
  }

  /** Checks a row against its list's schema and keeps it; a list past its most rows is refused at once. */
  private keep(
    list: UserDataListName | `plan.${PlanListName}`,
    path: (string | number)[],
    { row: schema, max }: { row: z.ZodType; max?: number },
    value: unknown,
  ): void {
    const count = (this.counts.get(list) ?? 0) + 1;
    this.counts.set(list, count);
    if (max !== undefined && count > max) {
      this.issues.push({ path: path.slice(0, -1), message: `holds more than ${max} rows; at most ${max} are allowed` });
      return;
    }
    if (list === 'importProfiles') {
      this.issues.push({ path: [list], message: IMPORT_PROFILES_REFUSED });
      return;
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) this.issues.push({ ...issue, path: [...path, ...issue.path] });
      return;
    }
    this.store(list, parsed.data);
  }

  /** A checked row: a spooled list's row to its spool and its facts to its columns, any other kept as it is. */
  private store(list: UserDataListName | `plan.${PlanListName}`, row: unknown): void {
    const { facts } = this;
    switch (list) {
      case 'transactions': {
        const transaction = row as ExportedTransaction;
        this.spools.of.transactions.add(transactionTexts(transaction));
        this.rowsOf('transactions').push(this.sharingTexts(transactionFacts(transaction)));
        return;
      }
      case 'transfers': {
        const { id, transactionIds } = row as TransferFacts;
        facts.transfers.push(id, ...transactionIds);
        break;
      }
      case 'transferCandidates':
        facts.transferCandidates.push(...(row as CandidateFacts).transactionIds);
        break;
      case 'rates': {
        const { date, base, quote } = row as RateFacts;
        facts.rates.push(dayNumber(date), facts.currencies.numberOf(base), facts.currencies.numberOf(quote));
        break;
      }
      case 'plan.assigned': {
        const { categoryId, month } = row as AssignedFacts;
        facts['plan.assigned'].push(categoryId, facts.months.numberOf(month));
        break;
      }
      case 'plan.moves': {
        const { fromCategoryId, toCategoryId } = row as MoveFacts;
        facts['plan.moves'].push(idOrNone(fromCategoryId), idOrNone(toCategoryId));
        break;
      }
      case 'plan.holds': {
        let holds = this.planRows.get('holds');
        if (!holds) this.planRows.set('holds', (holds = []));
        holds.push(row);
        return;
      }
      default:
        this.rowsOf(list).push(this.sharingTexts(row));
        return;
    }
    this.spools.of[list].add(row);
  }

  private rowsOf(list: UserDataListName): unknown[] {
    let rows = this.rows.get(list);
    if (!rows) this.rows.set(list, (rows = []));
    return rows;
  }

  /** The row with its short texts replaced by the copy kept of each. */
  private sharingTexts<T>(row: T): T {
    if (typeof row !== 'object' || row === null) return row;
    const fields = row as Record<string, unknown>;
    for (const key of Object.keys(fields)) {
      const text = fields[key];
      if (typeof text !== 'string' || text.length > SHARED_TEXT_MAX_LENGTH) continue;
      const kept = this.texts.get(text);
      if (kept !== undefined) fields[key] = kept;
      else if (this.texts.size < SHARED_TEXTS_MAX) this.texts.set(text, text);
    }
    return row;
  }

  /** A value of the top level, checked as it arrives: a value that is not a list, or a list's (emptied) array. */
  private topValue(name: string, value: unknown): void {
    if (this.top.has(name)) this.issues.push({ path: [name], message: 'appears twice' });
    if (name === 'plan') {
      const shell = planShellSchema.safeParse(value);
      if (!shell.success)
        for (const issue of shell.error.issues) this.issues.push({ ...issue, path: [name, ...issue.path] });
      this.top.set(name, {
        assigned: this.facts['plan.assigned'],
        moves: this.facts['plan.moves'],
        holds: this.planRows.get('holds') ?? [],
      });
      return;
    }
    this.top.set(name, value);
    if (isHead(name)) {
      const parsed = userDataHeadShape[name].safeParse(value);
      if (!parsed.success)
        for (const issue of parsed.error.issues) this.issues.push({ ...issue, path: [name, ...issue.path] });
    } else if (!isList(name)) this.issues.push({ path: [], message: `Unrecognized key: "${name}"` });
    else if (!Array.isArray(value)) this.issues.push({ path: [name], message: 'must be a list' });
  }

  /** The document (its transactions as their facts), or the 400 naming what is wrong with it. */
  async finish(): Promise<CheckedDocument> {
    if (this.fatal !== null) throw new AppError(this.fatalTooLarge ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST', this.fatal);
    if (!this.rootSeen) throw new AppError('BAD_REQUEST', 'Request body is required: send a JSON object');
    if (this.issues.length === 0) this.headIssues();
    if (this.issues.length > 0) throw new AppError('BAD_REQUEST', describeIssues(this.issues.slice(0, MAX_ISSUES)));
    const doc = Object.fromEntries(this.top) as Record<string, unknown>;
    for (const [list, rows] of this.rows) doc[list] = rows;
    for (const list of ['transfers', 'transferCandidates', 'rates'] as const)
      if (this.top.has(list)) doc[list] = this.facts[list];
    // Every value was checked by now: the top level's as it came, the lists' a row at a time.
    const problems = await runStepsAsync(userDataProblemSteps(doc as CheckedDocument), pause);
    if (problems.length > 0) throw new AppError('BAD_REQUEST', describeIssues(problems));
    return doc as CheckedDocument;
  }

  /** What the top level lacks (lists past their most rows were refused as they came). */
  private headIssues(): void {
    for (const name of ['format', 'version'])
      if (!this.top.has(name)) this.issues.push({ path: [name], message: 'is missing' });
    for (const [name, list] of Object.entries(USER_DATA_LISTS))
      if (!this.top.has(name) && !('optional' in list)) this.issues.push({ path: [name], message: 'is missing' });
  }
}

const mb = (bytes: number) => `${bytes / 1024 / 1024} MB`;
const closes = (token: ParsedTokenInfo) =>
  token.token === TokenType.RIGHT_BRACE || token.token === TokenType.RIGHT_BRACKET;

/**
 * Reads the document from its bytes as they arrive; answers it checked (the rows in their parsed form, the
 * transactions as their facts, the texts of each added to `spool` in the document's order), or throws a 400 naming
 * its problems. Every byte is read even when the document is refused early, so the client gets the answer after
 * sending its request rather than a closed connection.
 */
export async function readUserDataDocument(
  body: AsyncIterable<Uint8Array>,
  spools: DocumentSpools,
): Promise<CheckedDocument> {
  const reader = new DocumentReader(spools);
  for await (const chunk of body) {
    for (let at = 0; at < chunk.byteLength && reader.reading; at += SLICE_BYTES) {
      reader.write(chunk.subarray(at, at + SLICE_BYTES));
      await spools.flushIfFull();
      const paused = pause();
      if (paused) await paused;
    }
  }
  reader.end();
  return reader.finish();
}
