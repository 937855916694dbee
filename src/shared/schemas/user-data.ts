/**
 * The "all my data" document of GET /api/export and POST /api/import: one user's accounts,
 * categories, CSV batches, transactions (with splits), budgets with line items and envelopes.
 * Rows refer to each other by the `id`s inside the document, so a restore may give them new
 * ids and every relation survives. `rules` holds the categorisation rules (src/shared/rules;
 * optional, so documents from before rules still restore). `importProfiles` is an optional
 * section kept open for a feature other work is adding; this version neither writes nor restores
 * it (a document carrying any is refused, so nothing is silently dropped).
 */
import { z } from 'zod';
import { ruleActionsSchema, ruleConditionsSchema, rulePrioritySchema } from '../rules/schema';
import { categorySourceSchema } from './suggest';
import { validateSplit } from '../splits';
import { DESCRIPTION_MAX_LENGTH, MAX_LINE_ITEMS_PER_BUDGET } from '../limits';
import { ACCOUNT_TYPES } from './accounts';
import { LINE_ITEM_TYPES } from './budgets';
import { categoryKindSchema, categoryTargetSchema, monthSchema } from './categories';
import { centsSchema, currencySchema, isoDateSchema, text } from './common';
import { rowProblem } from '../rates/read-rates';
import { CLEARED_STATES, TRANSACTION_TYPES } from './transactions';
import { nameKey } from '../names';
import { runSteps, type Steps } from '../csv/steps';
import {
  MAX_SCHEDULES_PER_USER,
  MAX_TOLERANCE_PERCENT,
  MAX_WINDOW_DAYS,
  OCCURRENCE_STATUSES,
  recurrenceSchema,
  SCHEDULE_MODES,
  scheduleEndSchema,
} from '../schedules/schema';
import { WEEKEND_RULES } from '../schedules/recurrence';
import { CANDIDATE_STATUSES, TRANSFER_ORIGINS } from './transfers';

export const USER_DATA_FORMAT = 'budget-tracker';
export const USER_DATA_VERSION = 1;
/** Rates a document may carry: the ECB's whole history for every currency it lists is far fewer. */
export const MAX_EXPORTED_RATES = 2_000_000;
export const IMPORT_PROFILES_REFUSED = 'cannot be restored by this version of Budget Tracker yet; nothing was restored';
/** A document names at most this many problems; the rest are summed up. */
const MAX_PROBLEMS = 20;

const rowId = z
  .number({ error: 'must be a whole number' })
  .int('must be a whole number')
  .positive('must be positive')
  .max(Number.MAX_SAFE_INTEGER);
const name = (max = 255) =>
  text({ max, trim: false })
    .min(1, 'must not be empty')
    .refine((v) => v.trim() === v && v !== '', 'must not start or end with spaces');
/** Free text: no control characters (line breaks only where `multiline`). */
const plain = (max: number, multiline = false) => text({ max, trim: false, multiline });
const timestamp = plain(40).optional();

export const exportedAccountSchema = z
  .object({
    id: rowId,
    name: name(),
    type: z.enum(ACCOUNT_TYPES),
    /** The balance after all the account's rows. */
    balance: centsSchema,
    /** Documents written before opening balances leave these out: a restore derives them from `balance`. */
    openingBalance: centsSchema.optional(),
    openingDate: isoDateSchema.optional(),
    /** "Apply confident suggestions"; documents written before it existed leave it out (on). */
    applySuggestions: z.boolean().optional(),
    /** On the plan; documents written before the plan leave it out (on, except investment accounts). */
    onBudget: z.boolean().optional(),
    /** ISO 4217 code of every amount of the account; documents written before currencies leave it out (the home currency). */
    currency: currencySchema.optional(),
    createdAt: timestamp,
  })
  .strict();
/**
 * A category; documents written before the plan leave out its kind (then income when most of its whole
 * transactions are money in, as the upgrade decides), hidden (false), rollover month and target (none).
 */
export const exportedCategorySchema = z
  .object({
    id: rowId,
    name: name(),
    kind: categoryKindSchema.optional(),
    hidden: z.boolean().optional(),
    rollsOverspendingFrom: monthSchema.nullable().optional(),
    target: categoryTargetSchema.nullable().optional(),
    createdAt: timestamp,
  })
  .strict();

/** The monthly plan's lists (assigned amounts by category and month, the moves kept as history, the held amounts), each with the schema of one row. */
export const PLAN_LISTS = {
  assigned: {
    row: z.object({ categoryId: rowId, month: monthSchema, amount: centsSchema }).strict(),
    max: 1_000_000,
  },
  moves: {
    row: z
      .object({
        month: monthSchema,
        fromCategoryId: rowId.nullable(),
        toCategoryId: rowId.nullable(),
        amount: centsSchema,
        date: isoDateSchema,
        createdAt: timestamp,
      })
      .strict(),
    max: 1_000_000,
  },
  holds: { row: z.object({ month: monthSchema, amount: centsSchema }).strict(), max: 100_000 },
} as const;
export type PlanListName = keyof typeof PLAN_LISTS;

/** The monthly plan. */
export const exportedPlanSchema = z
  .object({
    assigned: z.array(PLAN_LISTS.assigned.row).max(PLAN_LISTS.assigned.max),
    moves: z.array(PLAN_LISTS.moves.row).max(PLAN_LISTS.moves.max),
    holds: z.array(PLAN_LISTS.holds.row).max(PLAN_LISTS.holds.max),
  })
  .strict();
export const exportedBatchSchema = z
  .object({
    id: plain(64).min(1, 'must not be empty'),
    accountId: rowId.nullable(),
    uploadDate: plain(40),
    transactionCount: z.number().int().min(0),
    fileName: plain(255).nullable(),
    dateFormat: plain(32).nullable(),
  })
  .strict();
export const exportedTransactionSchema = z
  .object({
    id: rowId,
    postDate: isoDateSchema,
    description: name(DESCRIPTION_MAX_LENGTH),
    /** The bank's text of a row a rule renamed (present only then). */
    bankDescription: name(DESCRIPTION_MAX_LENGTH).optional(),
    amount: centsSchema,
    type: z.enum(TRANSACTION_TYPES),
    accountId: rowId.nullable(),
    categoryId: rowId.nullable(),
    /** Where the category came from; documents written before it existed leave it out (null). */
    categorySource: categorySourceSchema.nullable().optional(),
    isSplit: z.boolean(),
    parentId: rowId.nullable(),
    splitNote: plain(1000, true).nullable(),
    batchId: plain(64).min(1, 'must not be empty').nullable(),
    /** What was paid in another currency, in its minor units (present only with originalCurrency). */
    originalAmount: centsSchema.optional(),
    originalCurrency: currencySchema.optional(),
    /** The person's own note (present only when there is one). */
    memo: plain(1000).optional(),
    /** Documents written before cleared states leave it out: uncleared. */
    cleared: z.enum(CLEARED_STATES).optional(),
    createdAt: timestamp,
  })
  .strict();
export const exportedLineItemSchema = z
  .object({
    id: rowId,
    name: name(),
    amount: centsSchema,
    type: z.enum(LINE_ITEM_TYPES),
    relatedCategories: z.array(plain(255)).max(500),
    createdAt: timestamp,
  })
  .strict();
export const exportedBudgetSchema = z
  .object({
    id: rowId,
    name: name(),
    startDate: isoDateSchema,
    endDate: isoDateSchema,
    amount: centsSchema,
    createdAt: timestamp,
    lineItems: z.array(exportedLineItemSchema).max(MAX_LINE_ITEMS_PER_BUDGET),
  })
  .strict();
export const exportedEnvelopeSchema = z
  .object({
    id: rowId,
    name: name(),
    description: plain(2000, true).nullable(),
    categories: z.array(plain(255)).max(500),
    color: z.string().regex(/^#[0-9A-Fa-f]{6}$/, 'must be a colour like #4CAF50'),
    isActive: z.boolean(),
    createdAt: timestamp,
  })
  .strict();

export const exportedRuleSchema = z
  .object({
    id: rowId,
    name: name(),
    conditions: ruleConditionsSchema,
    actions: ruleActionsSchema,
    priority: rulePrioritySchema,
    enabled: z.boolean(),
    createdAt: timestamp,
  })
  .strict();

export const exportedOccurrenceSchema = z
  .object({
    scheduledDate: isoDateSchema,
    date: isoDateSchema,
    amount: centsSchema,
    status: z.enum(OCCURRENCE_STATUSES),
    transactionId: rowId.nullable(),
  })
  .strict();

export const exportedScheduleSchema = z
  .object({
    id: rowId,
    name: name(),
    accountId: rowId,
    description: name(DESCRIPTION_MAX_LENGTH),
    amount: centsSchema,
    amountTolerance: z.number().min(0).max(MAX_TOLERANCE_PERCENT),
    categoryId: rowId.nullable(),
    recurrence: recurrenceSchema,
    weekendRule: z.enum(WEEKEND_RULES),
    mode: z.enum(SCHEDULE_MODES),
    window: z.number().int().min(0).max(MAX_WINDOW_DAYS),
    startDate: isoDateSchema,
    end: scheduleEndSchema,
    createdAt: timestamp,
    occurrences: z.array(exportedOccurrenceSchema).max(100_000),
  })
  .strict();

/** An exchange rate the user's figures are converted with: one `base` is `rate` units of `quote` on `date`. */
export const exportedRateSchema = z
  .object({ date: isoDateSchema, base: currencySchema, quote: currencySchema, rate: plain(40) })
  .strict()
  .superRefine((v, ctx) => {
    const problem = rowProblem(v.date, v.base, v.quote, v.rate);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['rate'] });
  });

/** A transfer: the two transactions it links (two accounts, opposite amounts). */
export const exportedTransferSchema = z
  .object({
    id: rowId,
    transactionIds: z.tuple([rowId, rowId]),
    origin: z.enum(TRANSFER_ORIGINS),
    createdAt: timestamp,
  })
  .strict();
/** A pair import offered as a transfer, still open or dismissed (so it is never offered again). */
export const exportedTransferCandidateSchema = z
  .object({
    transactionIds: z.tuple([rowId, rowId]),
    score: z.number().int().min(0).max(100),
    reason: plain(500),
    status: z.enum(CANDIDATE_STATUSES),
    createdAt: timestamp,
  })
  .strict();

/**
 * The document's lists, each with the schema of one of its rows: what a reader that takes the document a row
 * at a time (a restore of tens of megabytes) checks each row against, and what `documentShape` is made of.
 * `max`: most rows the list may hold; `optional`: absent in documents written before it existed.
 */
export const USER_DATA_LISTS = {
  /** What the export leaves out on purpose, in words (the history of changes and the trash). */
  leftOut: { row: plain(200), max: 20, optional: true },
  accounts: { row: exportedAccountSchema },
  categories: { row: exportedCategorySchema },
  batches: { row: exportedBatchSchema },
  transactions: { row: exportedTransactionSchema },
  budgets: { row: exportedBudgetSchema },
  envelopes: { row: exportedEnvelopeSchema },
  /** Reserved: import profiles (CSV column mappings), written by a later version. */
  importProfiles: { row: z.unknown(), optional: true },
  /** Categorisation rules. */
  rules: { row: exportedRuleSchema, max: 1000, optional: true },
  /** Scheduled transactions with their stored occurrences. */
  schedules: { row: exportedScheduleSchema, max: MAX_SCHEDULES_PER_USER, optional: true },
  /** Linked transfers. */
  transfers: { row: exportedTransferSchema, optional: true },
  /** Pairs import offered as transfers, open or dismissed. */
  transferCandidates: { row: exportedTransferCandidateSchema, optional: true },
  /**
   * The exchange rates between the user's currencies (and the bases they cross through). Rates belong to the
   * instance: a restore adds those it lacks and keeps its own.
   */
  rates: { row: exportedRateSchema, max: MAX_EXPORTED_RATES, optional: true },
} as const satisfies Record<string, { row: z.ZodType; max?: number; optional?: true }>;
export type UserDataListName = keyof typeof USER_DATA_LISTS;

/** One list of the document: an array of its rows, at most `max`. */
function listSchema<S extends z.ZodType>(list: { row: S; max?: number }) {
  const array = z.array(list.row);
  return list.max === undefined ? array : array.max(list.max);
}

/** The document's values that are not lists. */
export const userDataHeadShape = {
  format: z.literal(USER_DATA_FORMAT, {
    error: `must be '${USER_DATA_FORMAT}' (this is not a Budget Tracker export)`,
  }),
  version: z.number().int(),
  exportedAt: plain(40).optional(),
  /** The currency figures combining accounts are converted to (absent before currencies: the restoring user's stays). */
  homeCurrency: currencySchema.optional(),
  /** The monthly plan (absent in documents written before it existed). */
  plan: exportedPlanSchema.optional(),
};

const L = USER_DATA_LISTS;
const documentShape = z
  .object({
    ...userDataHeadShape,
    leftOut: listSchema(L.leftOut).optional(),
    accounts: listSchema(L.accounts),
    categories: listSchema(L.categories),
    batches: listSchema(L.batches),
    transactions: listSchema(L.transactions),
    budgets: listSchema(L.budgets),
    envelopes: listSchema(L.envelopes),
    importProfiles: listSchema(L.importProfiles).optional(),
    rules: listSchema(L.rules).optional(),
    schedules: listSchema(L.schedules).optional(),
    transfers: listSchema(L.transfers).optional(),
    transferCandidates: listSchema(L.transferCandidates).optional(),
    rates: listSchema(L.rates).optional(),
  })
  .strict();

export type UserDataDocument = z.infer<typeof documentShape>;
export type ExportedTransaction = z.infer<typeof exportedTransactionSchema>;

/**
 * What the checks across rows (and a restore's sums by account and category) need of a transaction: its texts
 * left out, so a reader of a large document can keep this of each row and the rest elsewhere.
 */
export type TransactionFacts = Pick<
  ExportedTransaction,
  | 'id'
  | 'postDate'
  | 'amount'
  | 'type'
  | 'accountId'
  | 'categoryId'
  | 'isSplit'
  | 'parentId'
  | 'batchId'
  | 'originalAmount'
  | 'originalCurrency'
>;

/** The facts of a checked transaction, every field present so that all of them share one shape. */
export function transactionFacts(t: ExportedTransaction): TransactionFacts {
  return {
    id: t.id,
    postDate: t.postDate,
    amount: t.amount,
    type: t.type,
    accountId: t.accountId,
    categoryId: t.categoryId,
    isSplit: t.isSplit,
    parentId: t.parentId,
    batchId: t.batchId,
    originalAmount: t.originalAmount,
    originalCurrency: t.originalCurrency,
  };
}

/**
 * A list the checks across rows read a row at a time: an array, or rows a server reading a large document keeps
 * compactly (numbers in typed arrays) and hands over one at a time.
 */
export interface CheckedList<T> {
  readonly length: number;
  entries: () => IterableIterator<[number, T]>;
}

type Transfer = z.infer<typeof exportedTransferSchema>;
type TransferCandidate = z.infer<typeof exportedTransferCandidateSchema>;
type Rate = z.infer<typeof exportedRateSchema>;
type ExportedPlan = z.infer<typeof exportedPlanSchema>;
/** What the checks read of a transfer, an offered pair, a rate and the plan's assigned amounts and moves. */
export type TransferFacts = Pick<Transfer, 'id' | 'transactionIds'>;
export type CandidateFacts = Pick<TransferCandidate, 'transactionIds'>;
export type RateFacts = Pick<Rate, 'date' | 'base' | 'quote'>;
export type AssignedFacts = Pick<ExportedPlan['assigned'][number], 'categoryId' | 'month'>;
export type MoveFacts = Pick<ExportedPlan['moves'][number], 'fromCategoryId' | 'toCategoryId'>;

/**
 * A document whose long lists may carry only their facts (what the checks across rows read): the transactions as
 * an array of facts, the transfers, offered pairs, rates and the plan's assigned amounts and moves as lists read a
 * row at a time.
 */
export type CheckedDocument = Omit<
  UserDataDocument,
  'transactions' | 'transfers' | 'transferCandidates' | 'rates' | 'plan'
> & {
  transactions: TransactionFacts[];
  transfers?: CheckedList<TransferFacts>;
  transferCandidates?: CheckedList<CandidateFacts>;
  rates?: CheckedList<RateFacts>;
  plan?: { assigned: CheckedList<AssignedFacts>; moves: CheckedList<MoveFacts>; holds: ExportedPlan['holds'] };
};

type Problem = { path: (string | number)[]; message: string };
type AddProblem = (path: (string | number)[], message: string) => void;

/** Rows checked between two steps of `userDataProblemSteps`. */
const ROWS_PER_STEP = 500;

/**
 * Problems a well-formed document can still have: a newer version, duplicate ids or names,
 * references to nothing, splits that do not hold together (parts must share the parent's date,
 * account and type and sum to it exactly), budgets ending before they start.
 */
export function userDataProblems(doc: UserDataDocument): Problem[] {
  return runSteps(userDataProblemSteps(doc));
}

/**
 * userDataProblems in steps of a few hundred rows (src/shared/csv/steps.ts), so a server checking a document of
 * hundreds of thousands of rows can let other requests in between. Every check is a map or set lookup per row.
 */
export function* userDataProblemSteps(doc: CheckedDocument): Steps<Problem[]> {
  const problems: Problem[] = [];
  const add: AddProblem = (path, message) => {
    if (problems.length <= MAX_PROBLEMS) problems.push({ path, message });
  };
  if (doc.version !== USER_DATA_VERSION) {
    add(
      ['version'],
      doc.version > USER_DATA_VERSION
        ? `${doc.version} was written by a newer Budget Tracker; this one reads version ${USER_DATA_VERSION}`
        : `must be ${USER_DATA_VERSION}`,
    );
    return problems;
  }
  if (doc.importProfiles?.length) add(['importProfiles'], IMPORT_PROFILES_REFUSED);
  const accounts = yield* idSteps('accounts', doc.accounts, add);
  const categories = yield* idSteps('categories', doc.categories, add);
  const batches = yield* idSteps('batches', doc.batches, add);
  const transactions = yield* idSteps('transactions', doc.transactions, add);
  yield* nameSteps('accounts', doc.accounts, add);
  yield* nameSteps('categories', doc.categories, add);
  doc.batches.forEach((batch, i) => {
    if (batch.accountId !== null && !accounts.has(batch.accountId))
      add(['batches', i, 'accountId'], `refers to no account (${batch.accountId})`);
  });
  yield* transactionSteps(doc, { accounts, categories, batches, transactions }, add);
  yield* planSteps(doc, categories, add);
  yield* rateSteps(doc.rates ?? [], add);
  yield* idSteps('budgets', doc.budgets, add);
  yield* idSteps('envelopes', doc.envelopes, add);
  yield* idSteps('rules', doc.rules ?? [], add);
  yield* idSteps('schedules', doc.schedules ?? [], add);
  yield* scheduleSteps(doc, { accounts, categories, transactions }, add);
  yield* transferSteps(doc, transactions, add);
  yield* idSteps(
    'lineItems',
    doc.budgets.flatMap((budget) => budget.lineItems),
    add,
  );
  doc.budgets.forEach((budget, i) => {
    if (budget.startDate > budget.endDate) add(['budgets', i, 'endDate'], 'Start date must not be after end date');
  });
  if (problems.length > MAX_PROBLEMS)
    problems.splice(MAX_PROBLEMS, problems.length - MAX_PROBLEMS, { path: [], message: 'and more problems' });
  return problems;
}

/** A section's rows by id, each id that appears twice named. */
function* idSteps<T extends { id: number | string }>(
  section: string,
  rows: readonly T[],
  add: AddProblem,
): Steps<Map<number | string, T>> {
  const seen = new Map<number | string, T>();
  for (const [i, row] of rows.entries()) {
    if (i % ROWS_PER_STEP === ROWS_PER_STEP - 1) yield;
    if (seen.has(row.id)) add([section, i, 'id'], `${row.id} appears twice`);
    seen.set(row.id, row);
  }
  return seen;
}

/** Names that appear twice in a section (regardless of case). */
function* nameSteps(section: string, rows: readonly { name: string }[], add: AddProblem): Steps<void> {
  const seen = new Set<string>();
  for (const [i, row] of rows.entries()) {
    if (i % ROWS_PER_STEP === ROWS_PER_STEP - 1) yield;
    const key = nameKey(row.name);
    if (seen.has(key)) add([section, i, 'name'], `'${row.name}' appears twice (names are compared regardless of case)`);
    seen.add(key);
  }
}

/** Transactions that refer to nothing, and splits that do not hold together. */
function* transactionSteps(
  doc: CheckedDocument,
  known: {
    accounts: ReadonlyMap<number | string, unknown>;
    categories: ReadonlyMap<number | string, unknown>;
    batches: ReadonlyMap<number | string, unknown>;
    transactions: ReadonlyMap<number | string, TransactionFacts>;
  },
  add: AddProblem,
): Steps<void> {
  const { accounts, categories, batches, transactions } = known;
  // Each parent with its parts' amounts, and the positions of split parents (for naming one).
  const parts = new Map<number, { parent: TransactionFacts; list: number[] }>();
  const positions = new Map<TransactionFacts, number>();
  for (const [i, tx] of doc.transactions.entries()) {
    if (i % ROWS_PER_STEP === ROWS_PER_STEP - 1) yield;
    if (tx.isSplit) positions.set(tx, i);
    if (tx.accountId !== null && !accounts.has(tx.accountId))
      add(['transactions', i, 'accountId'], `refers to no account (${tx.accountId})`);
    if (tx.categoryId !== null && !categories.has(tx.categoryId))
      add(['transactions', i, 'categoryId'], `refers to no category (${tx.categoryId})`);
    if (tx.batchId !== null && !batches.has(tx.batchId))
      add(['transactions', i, 'batchId'], `refers to no batch (${tx.batchId})`);
    if ((tx.originalAmount === undefined) !== (tx.originalCurrency === undefined))
      add(['transactions', i, 'originalCurrency'], 'originalAmount and originalCurrency go together');
    if (tx.parentId === null) continue;
    const parent = transactions.get(tx.parentId);
    if (!parent) {
      add(['transactions', i, 'parentId'], `refers to no transaction (${tx.parentId})`);
      continue;
    }
    if (tx.isSplit) add(['transactions', i, 'isSplit'], 'a split part cannot itself be split');
    if (parent.parentId !== null || !parent.isSplit)
      add(['transactions', i, 'parentId'], `transaction ${parent.id} is not a split parent`);
    if (tx.postDate !== parent.postDate || tx.accountId !== parent.accountId || tx.type !== parent.type) {
      add(['transactions', i], `a split part shares its parent's date, account and type (parent ${parent.id})`);
    }
    const split = parts.get(parent.id);
    if (split) split.list.push(tx.amount);
    else parts.set(parent.id, { parent, list: [tx.amount] });
  }
  let checked = 0;
  for (const [parentId, { parent, list }] of parts) {
    if (++checked % ROWS_PER_STEP === 0) yield;
    const check = validateSplit(
      parent.amount,
      list.map((amount) => ({ amount, category: 'part' })),
    );
    if (!check.ok)
      add(['transactions', positions.get(parent) ?? -1], `split of transaction ${parentId}: ${check.message}`);
  }
}

/** Schedules that refer to nothing, or whose occurrences repeat a date or share a transaction. */
function* scheduleSteps(
  doc: CheckedDocument,
  known: {
    accounts: ReadonlyMap<number | string, unknown>;
    categories: ReadonlyMap<number | string, unknown>;
    transactions: ReadonlyMap<number | string, unknown>;
  },
  add: AddProblem,
): Steps<void> {
  const { accounts, categories, transactions } = known;
  const paid = new Set<number>();
  let checked = 0;
  for (const [i, schedule] of (doc.schedules ?? []).entries()) {
    if (!accounts.has(schedule.accountId))
      add(['schedules', i, 'accountId'], `refers to no account (${schedule.accountId})`);
    if (schedule.categoryId !== null && !categories.has(schedule.categoryId))
      add(['schedules', i, 'categoryId'], `refers to no category (${schedule.categoryId})`);
    const days = new Set<string>();
    for (const [j, o] of schedule.occurrences.entries()) {
      if (++checked % ROWS_PER_STEP === 0) yield;
      if (days.has(o.scheduledDate))
        add(['schedules', i, 'occurrences', j, 'scheduledDate'], `${o.scheduledDate} appears twice`);
      days.add(o.scheduledDate);
      if (o.transactionId === null) continue;
      if (!transactions.has(o.transactionId))
        add(['schedules', i, 'occurrences', j, 'transactionId'], `refers to no transaction (${o.transactionId})`);
      if (paid.has(o.transactionId))
        add(['schedules', i, 'occurrences', j, 'transactionId'], `transaction ${o.transactionId} pays two occurrences`);
      paid.add(o.transactionId);
    }
  }
}

/**
 * Transfers that do not hold together: each links two transactions of the document in two accounts
 * with opposite amounts, neither split nor a part, and no transaction is a side of two transfers.
 */
function* transferSteps(
  doc: CheckedDocument,
  transactions: ReadonlyMap<number | string, TransactionFacts>,
  add: AddProblem,
): Steps<void> {
  const sides = new Set<number>();
  const currencies = new Map(doc.accounts.map((account) => [account.id, account.currency ?? doc.homeCurrency]));
  const currencyOf = (accountId: number | null) => (accountId === null ? undefined : currencies.get(accountId));
  yield* repeatedIdSteps('transfers', doc.transfers ?? [], add);
  for (const [i, transfer] of (doc.transfers ?? []).entries()) {
    if (i % ROWS_PER_STEP === ROWS_PER_STEP - 1) yield;
    const [a, b] = transfer.transactionIds.map((id) => transactions.get(id));
    if (!a || !b) {
      add(['transfers', i, 'transactionIds'], `refers to no transaction (${transfer.transactionIds.join(', ')})`);
      continue;
    }
    if (a.accountId === null || b.accountId === null || a.accountId === b.accountId)
      add(['transfers', i], 'links two transactions of two different accounts');
    // Across currencies each side keeps its own amount: only the directions must be opposite.
    const across = currencyOf(a.accountId) !== currencyOf(b.accountId);
    const opposite = across
      ? a.amount !== 0 && b.amount !== 0 && a.amount < 0 !== b.amount < 0
      : a.amount === -b.amount;
    if (!opposite || a.amount === 0) add(['transfers', i], 'links two opposite amounts');
    if (a.isSplit || b.isSplit || a.parentId !== null || b.parentId !== null)
      add(['transfers', i], 'links whole transactions (no split parent or part)');
    for (const id of transfer.transactionIds) {
      if (sides.has(id)) add(['transfers', i, 'transactionIds'], `transaction ${id} is a side of two transfers`);
      sides.add(id);
    }
  }
  for (const [i, candidate] of (doc.transferCandidates ?? []).entries()) {
    if (i % ROWS_PER_STEP === ROWS_PER_STEP - 1) yield;
    for (const id of candidate.transactionIds)
      if (!transactions.has(id)) add(['transferCandidates', i, 'transactionIds'], `refers to no transaction (${id})`);
    if (candidate.transactionIds[0] === candidate.transactionIds[1])
      add(['transferCandidates', i, 'transactionIds'], 'pairs two different transactions');
  }
}

/**
 * A plan that refers to no category, assigns twice to one category in one month, holds twice in one
 * month, or moves money between a category and itself.
 */
function* planSteps(
  doc: CheckedDocument,
  categories: ReadonlyMap<number | string, unknown>,
  add: (path: (string | number)[], message: string) => void,
): Steps<void> {
  if (!doc.plan) return;
  const known = (path: (string | number)[], id: number | null) => {
    if (id !== null && !categories.has(id)) add(path, `refers to no category (${id})`);
  };
  for (const [i, row] of doc.plan.assigned.entries()) {
    if (i % ROWS_PER_STEP === ROWS_PER_STEP - 1) yield;
    known(['plan', 'assigned', i, 'categoryId'], row.categoryId);
  }
  const categoryNumbers = new Map<number, number>();
  const categoryNumber = (id: number) => {
    let n = categoryNumbers.get(id);
    if (n === undefined) categoryNumbers.set(id, (n = categoryNumbers.size));
    return n;
  };
  let unknown = 0;
  yield* repeatedKeySteps(
    doc.plan.assigned,
    // A month as a whole number below 2^17 (years up to 9999); a category the document lacks (named above) by a
    // key of its own, so the numbers given stay as few as the categories.
    (row) =>
      categories.has(row.categoryId)
        ? categoryNumber(row.categoryId) * 2 ** 17 + Number(row.month.slice(0, 4)) * 12 + Number(row.month.slice(5, 7))
        : -(unknown += 1),
    (i, row) => add(['plan', 'assigned', i], `category ${row.categoryId} is assigned twice in ${row.month}`),
  );
  for (const [i, move] of doc.plan.moves.entries()) {
    if (i % ROWS_PER_STEP === ROWS_PER_STEP - 1) yield;
    known(['plan', 'moves', i, 'fromCategoryId'], move.fromCategoryId);
    known(['plan', 'moves', i, 'toCategoryId'], move.toCategoryId);
    if (move.fromCategoryId === move.toCategoryId)
      add(['plan', 'moves', i], 'moves money between two different places');
  }
  const held = new Set<string>();
  for (const [i, hold] of doc.plan.holds.entries()) {
    if (i % ROWS_PER_STEP === ROWS_PER_STEP - 1) yield;
    if (held.has(hold.month)) add(['plan', 'holds', i, 'month'], `${hold.month} is held twice`);
    if (hold.amount < 0) add(['plan', 'holds', i, 'amount'], 'must be zero or more');
    held.add(hold.month);
  }
}

/** A rate given twice for one pair and day. */
function* rateSteps(rates: CheckedList<RateFacts>, add: AddProblem): Steps<void> {
  const pairs = new Map<string, number>();
  const pairOf = (rate: RateFacts) => {
    const pair = `${rate.base}${rate.quote}`;
    let n = pairs.get(pair);
    if (n === undefined) pairs.set(pair, (n = pairs.size));
    return n;
  };
  yield* repeatedKeySteps(
    rates,
    (rate) => pairOf(rate) * 2 ** 23 + dayNumber(rate.date),
    (i, rate) => add(['rates', i], `the ${rate.base} to ${rate.quote} rate of ${rate.date} appears twice`),
  );
}

/** Keys one pass of `repeatedKeySteps` keeps at most (about), each a few dozen bytes in a Set. */
const KEYS_PER_PASS = 200_000;

/**
 * Calls `onRepeat` for each row whose key (a whole number) repeats an earlier row's. A Set of every key of a list of
 * millions of rows takes tens of megabytes: the rows are read in as many passes as it takes to keep about
 * KEYS_PER_PASS keys a pass, each pass keeping the keys of one share (by the key's remainder), so memory stays small
 * and the time grows by a read of the rows a pass.
 */
function* repeatedKeySteps<T>(
  rows: CheckedList<T>,
  keyOf: (row: T) => number,
  onRepeat: (i: number, row: T) => void,
): Steps<void> {
  const passes = Math.max(1, Math.ceil(rows.length / KEYS_PER_PASS));
  for (let pass = 0; pass < passes; pass += 1) {
    const seen = new Set<number>();
    for (const [i, row] of rows.entries()) {
      if (i % ROWS_PER_STEP === ROWS_PER_STEP - 1) yield;
      const key = keyOf(row);
      if (passes > 1 && ((key % passes) + passes) % passes !== pass) continue;
      if (seen.has(key)) onRepeat(i, row);
      seen.add(key);
    }
  }
}

/** A checked YYYY-MM-DD date as a whole number, one to one (not a count of days: only told apart and put back). */
export function dayNumber(date: string): number {
  return Number(date.slice(0, 4)) * 372 + (Number(date.slice(5, 7)) - 1) * 31 + Number(date.slice(8, 10)) - 1;
}

/** The date `dayNumber` made the number of. */
export function dayOfNumber(n: number): string {
  const year = Math.floor(n / 372);
  const month = Math.floor((n - year * 372) / 31);
  const day = n - year * 372 - month * 31;
  return `${String(year).padStart(4, '0')}-${String(month + 1).padStart(2, '0')}-${String(day + 1).padStart(2, '0')}`;
}

/** Ids that appear twice in a section. */
function* repeatedIdSteps(section: string, rows: CheckedList<{ id: number }>, add: AddProblem): Steps<void> {
  yield* repeatedKeySteps(
    rows,
    (row) => row.id,
    (i, row) => add([section, i, 'id'], `${row.id} appears twice`),
  );
}

/** The document as POST /api/import takes it: well-formed and consistent, else 400 naming the problems. */
export const userDataDocumentSchema = documentShape.superRefine((doc, ctx) => {
  for (const problem of userDataProblems(doc))
    ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
});

export interface UserDataImportResult {
  message: string;
  imported: {
    accounts: number;
    categories: number;
    batches: number;
    transactions: number;
    budgets: number;
    lineItems: number;
    envelopes: number;
    rules: number;
    schedules: number;
    /** The plan's assigned amounts, moves and holds. */
    planAssigned: number;
    planMoves: number;
    planHolds: number;
  };
}
