/**
 * Reads an "all my data" document as its bytes arrive, a row at a time, instead of parsing tens of megabytes in
 * one call: `@streamparser/json` tokenizes a slice of bytes per step and hands over each row of each list as soon
 * as it is complete; the row is checked against its list's schema (USER_DATA_LISTS) and kept in its checked form,
 * and the raw text and objects are never held whole. A transaction (the list that grows with years of use) is
 * kept in two parts: its facts (ids, amount, date; what the checks across rows need) in memory, and its texts in a
 * spool on disk that the restore reads back, so memory does not grow with the length of the descriptions.
 * The body is read no faster than the spool is written. Then the problems across rows (userDataProblemSteps) are
 * looked for in steps. The event loop turns between steps, so other requests are answered meanwhile.
 */
import { TokenParser, Tokenizer, TokenType } from '@streamparser/json';
import type { ParsedElementInfo, ParsedTokenInfo } from '@streamparser/json';
import { z } from 'zod';
import { AppError, describeIssues, type ValidationIssue } from '../../../shared/errors';
import { runStepsAsync } from '../../../shared/csv/steps';
import {
  PLAN_LISTS,
  USER_DATA_LISTS,
  userDataHeadShape,
  type PlanListName,
  userDataProblemSteps,
  type CheckedDocument,
  type ExportedTransaction,
  transactionFacts,
  type UserDataListName,
} from '../../../shared/schemas/user-data';
import { pause } from '../../common/pause';
import type { RowSpool } from './row-spool';

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
  readonly issues: ValidationIssue[] = [];
  readonly top = new Map<string, unknown>();
  readonly rows = new Map<UserDataListName, unknown[]>();
  readonly planRows = new Map<PlanListName, unknown[]>();
  private readonly texts = new Map<string, string>();

  constructor(private readonly spool: RowSpool) {
    this.tokenizer.onToken = (token: ParsedTokenInfo) => {
      this.rootSeen = true;
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
      if (isPlanList(list)) this.keep(this.planRows, list, ['plan', list, Number(key)], PLAN_LISTS[list].row, value);
      return;
    }
    if (stack.length === 2) {
      if (!Array.isArray(parent)) return;
      parent.length -= 1;
      const list = at[1] ?? '';
      if (isList(list)) this.keep(this.rows, list, [list, Number(key)], USER_DATA_LISTS[list].row, value);
      return;
    }
    this.topValue(String(key), value);
  }

  private keep<K>(
    into: Map<K, unknown[]>,
    list: K,
    path: (string | number)[],
    schema: z.ZodType,
    value: unknown,
  ): void {
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) this.issues.push({ ...issue, path: [...path, ...issue.path] });
      return;
    }
    let rows = into.get(list);
    if (!rows) into.set(list, (rows = []));
    if (list !== 'transactions') {
      rows.push(this.sharingTexts(parsed.data));
      return;
    }
    const transaction = parsed.data as ExportedTransaction;
    this.spool.add(transactionTexts(transaction));
    rows.push(this.sharingTexts(transactionFacts(transaction)));
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
      this.top.set(
        name,
        Object.fromEntries(
          Object.keys(PLAN_LISTS).map((list) => [list, this.planRows.get(list as PlanListName) ?? []]),
        ),
      );
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
    if (this.fatal !== null) throw new AppError('BAD_REQUEST', this.fatal);
    if (!this.rootSeen) throw new AppError('BAD_REQUEST', 'Request body is required: send a JSON object');
    if (this.issues.length === 0) this.headIssues();
    if (this.issues.length > 0) throw new AppError('BAD_REQUEST', describeIssues(this.issues.slice(0, MAX_ISSUES)));
    const doc = Object.fromEntries(this.top) as Record<string, unknown>;
    for (const [list, rows] of this.rows) doc[list] = rows;
    // Every value was checked by now: the top level's as it came, the lists' a row at a time.
    const problems = await runStepsAsync(userDataProblemSteps(doc as CheckedDocument), pause);
    if (problems.length > 0) throw new AppError('BAD_REQUEST', describeIssues(problems));
    return doc as CheckedDocument;
  }

  /** What the top level lacks, and lists holding more rows than they may. */
  private headIssues(): void {
    for (const name of ['format', 'version'])
      if (!this.top.has(name)) this.issues.push({ path: [name], message: 'is missing' });
    for (const [name, list] of Object.entries(USER_DATA_LISTS)) {
      const count = this.rows.get(name as UserDataListName)?.length ?? 0;
      if (!this.top.has(name) && !('optional' in list)) this.issues.push({ path: [name], message: 'is missing' });
      if ('max' in list && count > list.max)
        this.issues.push({ path: [name], message: `holds ${count} rows; at most ${list.max} are allowed` });
    }
    for (const [name, list] of Object.entries(PLAN_LISTS)) {
      const count = this.planRows.get(name as PlanListName)?.length ?? 0;
      if (count > list.max)
        this.issues.push({ path: ['plan', name], message: `holds ${count} rows; at most ${list.max} are allowed` });
    }
  }
}

/**
 * Reads the document from its bytes as they arrive; answers it checked (the rows in their parsed form, the
 * transactions as their facts, the texts of each added to `spool` in the document's order), or throws a 400 naming
 * its problems. Every byte is read even when the document is refused early, so the client gets the answer after
 * sending its request rather than a closed connection.
 */
export async function readUserDataDocument(body: AsyncIterable<Uint8Array>, spool: RowSpool): Promise<CheckedDocument> {
  const reader = new DocumentReader(spool);
  for await (const chunk of body) {
    for (let at = 0; at < chunk.byteLength && reader.reading; at += SLICE_BYTES) {
      reader.write(chunk.subarray(at, at + SLICE_BYTES));
      await spool.flushIfFull();
      const paused = pause();
      if (paused) await paused;
    }
  }
  reader.end();
  return reader.finish();
}
