import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { EntityManager } from '@mikro-orm/knex';
import { limiter } from '../../common/limiter';
import { AppError } from '../../../shared/errors';
import type { CategorySource } from '../../../shared/schemas/suggest';
import type { ClearedState } from '../../../shared/schemas/transactions';
import {
  USER_DATA_FORMAT,
  USER_DATA_VERSION,
  type CheckedDocument,
  type TransactionFacts,
  type UserDataDocument,
  type UserDataImportResult,
} from '../../../shared/schemas/user-data';
import type { RuleDto } from '../../../shared/rules';
import { ensureCategories } from '../categories/categories.service';
import { countedRowSql, selectRows, sqlTx, TRANSACTION_TABLE, withUserScope, type SqlTx } from '../../db/sql';
import { ChangeRecorder } from '../history/recorder';
import { withCheckpointAfter } from '../../db/wal-checkpoint';
import { pause } from '../../common/pause';
import { DocumentSpools, readUserDataDocument, type TransactionTexts } from './document-reader';
import { addDays } from '../../../shared/dates/calendar';
import type { OccurrenceStatus, ScheduleMode, WeekendRule } from '../../../shared/schedules';
import { endOf } from '../schedules/schedule-runs';
import { exportTransfers, restoreTransfers } from '../transfers/transfer-data';
import {
  insertRestoredTransactions,
  reserveTransactionIds,
  setRestoredParents,
  type RestoredRow,
} from '../../db/transaction-writes';
import { categoryKinds, exportedCategoryPlan, exportPlan, restorePlan, targetColumns } from '../plan/plan-data';
import { defaultOnBudget } from '../../../shared/schemas/accounts';
import { must } from '../../../shared/must';
import { freeName, nameKey } from '../../../shared/names';
import { exportCurrencyData, restoreCurrencyData } from './currency-data';
import type { RowSpool } from './row-spool';

/** The tables that hold a user's data (line items go with their budgets). */
const DATA_TABLES = [
  ['account', 'account'],
  ['category', 'category'],
  ['batch', 'batch'],
  [TRANSACTION_TABLE, 'transaction'],
  ['budget', 'budget'],
  ['envelope', 'envelope'],
  ['rule', 'rule'],
  ['schedule', 'schedule'],
] as const;

function parseJson(text: unknown): unknown {
  return typeof text === 'string' ? JSON.parse(text) : text;
}

function parseJsonList(text: unknown): string[] {
  if (Array.isArray(text)) return text as string[];
  return typeof text === 'string' ? (JSON.parse(text) as string[]) : [];
}

/**
 * Each account's opening balance and date. A document written before opening balances carries the
 * balance after all rows only: the opening balance is that minus the account's counted rows, dated
 * the day before its earliest row (or the day it was created), as the upgrade of a database does.
 */
async function openingBalances(
  doc: CheckedDocument,
  now: string,
): Promise<Map<number, { balance: number; date: string }>> {
  const counted = new Map<number, number>();
  const earliest = new Map<number, string>();
  for (const t of doc.transactions) {
    await pause();
    if (t.accountId === null) continue;
    if (!t.isSplit) counted.set(t.accountId, (counted.get(t.accountId) ?? 0) + t.amount);
    const first = earliest.get(t.accountId);
    if (first === undefined || t.postDate < first) earliest.set(t.accountId, t.postDate);
  }
  const openings = new Map<number, { balance: number; date: string }>();
  for (const a of doc.accounts) {
    const first = earliest.get(a.id);
    openings.set(a.id, {
      balance: a.openingBalance ?? a.balance - (counted.get(a.id) ?? 0),
      date: a.openingDate ?? (first === undefined ? (a.createdAt ?? now).slice(0, 10) : addDays(first, -1)),
    });
  }
  return openings;
}

/** Everything the user has, as one versioned document (src/shared/schemas/user-data.ts), rows in id order. */
export async function exportUserData(
  em: EntityManager,
  userId: number,
  now = new Date(),
): Promise<UserDataDocument & { exportedAt: string }> {
  const accounts = await exportAccounts(em, userId);
  const categories = await exportCategories(em, userId);
  const batches = await exportBatches(em, userId);
  const transactions = await exportTransactions(em, userId);
  const budgets = await exportBudgets(em, userId);
  const envelopes = await exportEnvelopes(em, userId);
  const rules = await exportRules(em, userId);
  const schedules = await exportSchedules(em, userId);
  const transfers = await exportTransfers(em, userId);
  const plan = await exportPlan(em, userId);
  const { homeCurrency, rates } = await exportCurrencyData(em, userId);
  return {
    format: USER_DATA_FORMAT,
    version: USER_DATA_VERSION,
    exportedAt: now.toISOString(),
    homeCurrency,
    leftOut: [
      'The history of changes (undo and redo): a restored account starts a new history.',
      'The trash: deleted transactions waiting there are not exported.',
    ],
    accounts,
    categories,
    batches,
    transactions,
    budgets,
    envelopes,
    rules,
    schedules,
    ...transfers,
    plan,
    rates,
  };
}

/** The user's accounts, each with its balance after every counted row. */
async function exportAccounts(em: EntityManager, userId: number): Promise<UserDataDocument['accounts']> {
  const accounts = await selectRows<{
    id: number;
    name: string;
    type: string;
    opening_balance: number;
    opening_date: string;
    counted: number | string | null;
    apply_suggestions: number;
    on_budget: number | boolean;
    currency: string;
    created_at: string;
  }>(
    em,
    `select a.id, a.name, a.type, a.opening_balance, a.opening_date, a.apply_suggestions, a.on_budget, a.currency, a.created_at,
       (select sum(t.amount) from ${TRANSACTION_TABLE} t where t.account_id = a.id and ${countedRowSql('t')}) as counted
       from account a where a.user_id = ? order by a.id`,
    [userId],
  );
  return accounts.map((a) => ({
    id: a.id,
    name: a.name,
    type: a.type as UserDataDocument['accounts'][number]['type'],
    balance: a.opening_balance + Number(a.counted ?? 0),
    openingBalance: a.opening_balance,
    openingDate: a.opening_date,
    applySuggestions: Boolean(a.apply_suggestions),
    onBudget: Boolean(a.on_budget),
    currency: a.currency,
    createdAt: a.created_at,
  }));
}

/** The user's categories, with their plan settings. */
async function exportCategories(em: EntityManager, userId: number): Promise<UserDataDocument['categories']> {
  const categories = await selectRows<
    { id: number; name: string; created_at: string } & Parameters<typeof exportedCategoryPlan>[0]
  >(
    em,
    `select id, name, kind, hidden, rolls_overspending_from, target_type, target_amount, target_date, created_at
       from category where user_id = ? order by id`,
    [userId],
  );
  return categories.map((c) => ({
    id: c.id,
    name: c.name,
    ...exportedCategoryPlan(c),
    createdAt: c.created_at,
  }));
}

/** The user's import batches, in the order they were uploaded. */
async function exportBatches(em: EntityManager, userId: number): Promise<UserDataDocument['batches']> {
  const batches = await selectRows<{
    id: string;
    account_id: number | null;
    upload_date: string;
    transaction_count: number;
    file_name: string | null;
    date_format: string | null;
  }>(
    em,
    'select id, account_id, upload_date, transaction_count, file_name, date_format from batch where user_id = ? order by upload_date, id',
    [userId],
  );
  return batches.map((b) => ({
    id: b.id,
    accountId: b.account_id,
    uploadDate: b.upload_date,
    transactionCount: b.transaction_count,
    fileName: b.file_name,
    dateFormat: b.date_format,
  }));
}

/** The user's transactions, split parts with their parent's id; an original amount where one was converted. */
async function exportTransactions(em: EntityManager, userId: number): Promise<UserDataDocument['transactions']> {
  const transactions = await selectRows<{
    id: number;
    post_date: string;
    description: string;
    bank_description: string | null;
    amount: number;
    type: string;
    account_id: number | null;
    category_id: number | null;
    category_source: string | null;
    is_split: number;
    parent_id: number | null;
    split_note: string | null;
    batch_id: string | null;
    original_amount: number | null;
    original_currency: string | null;
    memo: string | null;
    cleared: string;
    created_at: string;
  }>(
    em,
    `select id, post_date, description, bank_description, amount, type, account_id, category_id, category_source, is_split, parent_id, split_note, batch_id,
            original_amount, original_currency, memo, cleared, created_at
       from ${TRANSACTION_TABLE} where user_id = ? order by id`,
    [userId],
  );
  return transactions.map((t) => ({
    id: t.id,
    postDate: t.post_date,
    description: t.description,
    ...(t.bank_description !== null ? { bankDescription: t.bank_description } : {}),
    amount: t.amount,
    type: t.type as UserDataDocument['transactions'][number]['type'],
    accountId: t.account_id,
    categoryId: t.category_id,
    categorySource: t.category_id === null ? null : (t.category_source as CategorySource | null),
    isSplit: Boolean(t.is_split),
    parentId: t.parent_id,
    splitNote: t.split_note,
    batchId: t.batch_id,
    ...(t.original_amount !== null && t.original_currency !== null
      ? { originalAmount: t.original_amount, originalCurrency: t.original_currency }
      : {}),
    ...(t.memo !== null ? { memo: t.memo } : {}),
    cleared: t.cleared as ClearedState,
    createdAt: t.created_at,
  }));
}

/** The user's budgets, each with its line items. */
async function exportBudgets(em: EntityManager, userId: number): Promise<UserDataDocument['budgets']> {
  const budgets = await selectRows<{
    id: number;
    name: string;
    start_date: string;
    end_date: string;
    amount: number;
    created_at: string;
  }>(em, 'select id, name, start_date, end_date, amount, created_at from budget where user_id = ? order by id', [
    userId,
  ]);
  const lineItems = await selectRows<{
    id: number;
    budget_id: number;
    name: string;
    amount: number;
    type: string;
    related_categories: unknown;
    created_at: string;
  }>(
    em,
    'select id, budget_id, name, amount, type, related_categories, created_at from line_item where user_id = ? order by id',
    [userId],
  );
  return budgets.map((b) => ({
    id: b.id,
    name: b.name,
    startDate: b.start_date,
    endDate: b.end_date,
    amount: b.amount,
    createdAt: b.created_at,
    lineItems: lineItems
      .filter((item) => item.budget_id === b.id)
      .map((item) => ({
        id: item.id,
        name: item.name,
        amount: item.amount,
        type: item.type as UserDataDocument['budgets'][number]['lineItems'][number]['type'],
        relatedCategories: parseJsonList(item.related_categories),
        createdAt: item.created_at,
      })),
  }));
}

/** The user's envelopes. */
async function exportEnvelopes(em: EntityManager, userId: number): Promise<UserDataDocument['envelopes']> {
  const envelopes = await selectRows<{
    id: number;
    name: string;
    description: string | null;
    categories: unknown;
    color: string;
    is_active: number;
    created_at: string;
  }>(
    em,
    'select id, name, description, categories, color, is_active, created_at from envelope where user_id = ? order by id',
    [userId],
  );
  return envelopes.map((e) => ({
    id: e.id,
    name: e.name,
    description: e.description,
    categories: parseJsonList(e.categories),
    color: e.color,
    isActive: Boolean(e.is_active),
    createdAt: e.created_at,
  }));
}

/** The user's rules, in the order they run. */
async function exportRules(em: EntityManager, userId: number): Promise<UserDataDocument['rules']> {
  const rules = await selectRows<{
    id: number;
    name: string;
    conditions: unknown;
    actions: unknown;
    priority: number;
    enabled: number;
    created_at: string;
  }>(
    em,
    'select id, name, conditions, actions, priority, enabled, created_at from rule where user_id = ? order by priority, id',
    [userId],
  );
  return rules.map((r) => ({
    id: r.id,
    name: r.name,
    conditions: parseJson(r.conditions) as RuleDto['conditions'],
    actions: parseJson(r.actions) as RuleDto['actions'],
    priority: r.priority,
    enabled: Boolean(r.enabled),
    createdAt: r.created_at,
  }));
}

/** The user's schedules with their stored occurrences, for the document. */
async function exportSchedules(em: EntityManager, userId: number): Promise<NonNullable<UserDataDocument['schedules']>> {
  const schedules = await selectRows<{
    id: number;
    name: string;
    account_id: number;
    description: string;
    amount: number;
    tolerance_basis_points: number;
    category_id: number | null;
    recurrence: string;
    weekend_rule: WeekendRule;
    mode: ScheduleMode;
    match_window: number;
    start_date: string;
    end_after: number | null;
    end_until: string | null;
    created_at: string;
  }>(
    em,
    `select id, name, account_id, description, amount, tolerance_basis_points, category_id, recurrence, weekend_rule, mode,
            match_window, start_date, end_after, end_until, created_at from schedule where user_id = ? order by id`,
    [userId],
  );
  const occurrences = await selectRows<{
    schedule_id: number;
    scheduled_date: string;
    due_date: string;
    amount: number;
    status: OccurrenceStatus;
    transaction_id: number | null;
  }>(
    em,
    'select schedule_id, scheduled_date, due_date, amount, status, transaction_id from schedule_occurrence where user_id = ? order by schedule_id, scheduled_date',
    [userId],
  );
  return schedules.map((s) => ({
    id: s.id,
    name: s.name,
    accountId: s.account_id,
    description: s.description,
    amount: s.amount,
    amountTolerance: s.tolerance_basis_points / 100,
    categoryId: s.category_id,
    recurrence: s.recurrence,
    weekendRule: s.weekend_rule,
    mode: s.mode,
    window: s.match_window,
    startDate: s.start_date,
    end: endOf(s),
    createdAt: s.created_at,
    occurrences: occurrences
      .filter((o) => o.schedule_id === s.id)
      .map((o) => ({
        scheduledDate: o.scheduled_date,
        date: o.due_date,
        amount: o.amount,
        status: o.status,
        transactionId: o.transaction_id,
      })),
  }));
}

/** Restores the document's schedules and occurrences (accounts, categories and transactions are in by now). */
async function restoreSchedules(
  db: SqlTx,
  userId: number,
  schedules: NonNullable<UserDataDocument['schedules']>,
  ids: {
    accounts: ReadonlyMap<number, number>;
    categories: ReadonlyMap<number, number>;
    transactions: ReadonlyMap<number, number>;
  },
  now: string,
): Promise<void> {
  for (const s of schedules) {
    await pause();
    const end = typeof s.end === 'object' ? s.end : null;
    const scheduleId = await db.insertId(
      `insert into schedule (user_id, account_id, name, description, amount, tolerance_basis_points, category_id, recurrence,
         weekend_rule, mode, match_window, start_date, end_after, end_until, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        userId,
        newIdOf(ids.accounts, s.accountId, 'account'),
        s.name,
        s.description,
        s.amount,
        Math.round(s.amountTolerance * 100),
        s.categoryId === null ? null : newIdOf(ids.categories, s.categoryId, 'category'),
        s.recurrence,
        s.weekendRule,
        s.mode,
        s.window,
        s.startDate,
        end && 'after' in end ? end.after : null,
        end && 'until' in end ? end.until : null,
        s.createdAt ?? now,
      ],
    );
    for (const o of s.occurrences) {
      await pause();
      await db.run(
        'insert into schedule_occurrence (user_id, schedule_id, scheduled_date, due_date, amount, status, transaction_id, created_at) values (?, ?, ?, ?, ?, ?, ?, ?)',
        [
          userId,
          scheduleId,
          o.scheduledDate,
          o.date,
          o.amount,
          o.status,
          o.transactionId === null ? null : newIdOf(ids.transactions, o.transactionId, 'transaction'),
          now,
        ],
      );
    }
  }
}

/**
 * The new id of a row the imported document refers to: validation checked every reference, and a row is
 * inserted before any row refers to it (split parents are linked after the loop).
 */
function newIdOf<K extends number | string, V>(ids: ReadonlyMap<K, V>, oldId: K, table: string): V {
  return must(ids.get(oldId), `the document's ${table} ${oldId} is inserted before it is referred to`);
}

/** How many rows of each kind the user has (all zero for a user without data). */
export async function userDataCounts(
  em: EntityManager,
  userId: number,
): Promise<Record<(typeof DATA_TABLES)[number][1], number>> {
  const counts = {} as Record<(typeof DATA_TABLES)[number][1], number>;
  for (const [table, label] of DATA_TABLES) {
    const [row] = await selectRows<{ n: number }>(em, `select count(*) as n from ${table} where user_id = ?`, [userId]);
    counts[label] = must(row, 'count(*) answers one row').n;
  }
  return counts;
}

const PLURALS: Record<string, string> = { category: 'categories', batch: 'batches' };

function plural(n: number, word: string): string {
  return `${n} ${n === 1 ? word : (PLURALS[word] ?? `${word}s`)}`;
}

/**
 * Restores in this process run one at a time (each holds a large document and many writes); one more may wait
 * its turn, so two sent at once into one user answer 201 and 409; beyond that a restore is refused with 429.
 */
const RESTORES_AT_ONCE = 1;
const RESTORES_WAITING = 1;
const restoreTurn = limiter(RESTORES_AT_ONCE);
let restoresPending = 0;

/**
 * Restores a document, read from its bytes as they arrive (`body`), into a user that has no data yet (409
 * otherwise), all or nothing in one database transaction. Rows get new ids (batches new UUIDs); every relation
 * is carried over by the document's ids, and the creation timestamps are kept. The document is read in its
 * restore's turn, so the process holds one at a time; reading, checking and writing it pause between steps.
 * Its long lists (transactions' texts, transfers, offered pairs, rates, the plan's assigned amounts and moves) wait in
 * spool files in `spoolDir` (the data folder on a server) between reading and writing.
 */
export async function importUserData(
  em: EntityManager,
  userId: number,
  body: AsyncIterable<Uint8Array>,
  { spoolDir = os.tmpdir() }: { spoolDir?: string } = {},
): Promise<UserDataImportResult> {
  if (restoresPending >= RESTORES_AT_ONCE + RESTORES_WAITING) {
    // Read to its end (not parsed), so the client gets the answer rather than a closed connection.
    await drain(body);
    throw new AppError(
      'TOO_MANY_REQUESTS',
      'Other restores are running on this server: try again when they have finished. Nothing was changed.',
    );
  }
  restoresPending += 1;
  try {
    return await restoreTurn(async () => {
      const spools = await DocumentSpools.create(spoolDir);
      try {
        const doc = await readUserDataDocument(body, spools);
        // SQLite: the commit only writes the log; a worker thread copies it into the file afterwards.
        return await withCheckpointAfter(em, () =>
          withUserScope(em, userId, (scoped) =>
            scoped.transactional(async (tem) => {
              const result = await restoreInto(tem, userId, doc, spools);
              await recordRestore(tem, userId, result);
              return result;
            }),
          ),
        );
      } finally {
        await spools.close();
      }
    });
  } finally {
    restoresPending -= 1;
  }
}

/** One entry in the user's history for the restore, in its transaction: what it brought, counted. */
async function recordRestore(tem: EntityManager, userId: number, result: UserDataImportResult): Promise<void> {
  const rows = Object.values(result.imported).reduce((sum, n) => sum + n, 0);
  await ChangeRecorder.recordRestore(tem, userId, rows, result.message.replace(/^Restored /, 'Restored a backup of '));
}

/** Reads bytes to their end without keeping them. */
async function drain(body: AsyncIterable<Uint8Array>): Promise<number> {
  let bytes = 0;
  for await (const chunk of body) bytes += chunk.byteLength;
  return bytes;
}

/** The document's ids mapped to the new rows' ids, table by table, as the restore inserts them. */
interface RestoredIds {
  accounts: Map<number, number>;
  categories: Map<number, number>;
  batches: Map<string, string>;
  transactions: Map<number, number>;
}

async function restoreInto(
  tem: EntityManager,
  userId: number,
  doc: CheckedDocument,
  spools: DocumentSpools,
): Promise<UserDataImportResult> {
  // Two restores into one user take turns (PostgreSQL): the second then finds the first's rows and answers 409.
  await (await sqlTx(tem)).lockName(`restore-user-${userId}`);
  const counts = await userDataCounts(tem, userId);
  const present = Object.entries(counts).filter(([, n]) => n > 0);
  if (present.length > 0) {
    throw new AppError(
      'CONFLICT',
      `A restore needs a user without data, and this one has ${present.map(([label, n]) => plural(n, label)).join(', ')}. Nothing was changed.`,
      { existing: counts },
    );
  }
  const db = await sqlTx(tem);
  const now = new Date().toISOString();
  const transactionCount = doc.transactions.length;
  const home = await restoreCurrencyData(tem, userId, doc.homeCurrency, spools.of.rates);
  const ids: RestoredIds = {
    accounts: await restoreAccounts(db, userId, doc, { now, home }),
    categories: await restoreCategories(db, userId, doc, now),
    batches: new Map(),
    transactions: new Map(),
  };
  ids.batches = await restoreBatches(db, userId, doc, ids.accounts);
  ids.transactions = await restoreTransactions(
    db,
    userId,
    { facts: doc.transactions, spool: spools.of.transactions },
    ids,
    now,
  );
  const lineItems = await restoreBudgets(db, userId, doc, now);
  for (const e of doc.envelopes) {
    await pause();
    await db.insertId(
      'insert into envelope (user_id, name, description, categories, color, is_active, created_at) values (?, ?, ?, ?, ?, ?, ?)',
      [userId, e.name, e.description, JSON.stringify(e.categories), e.color, e.isActive, e.createdAt ?? now],
    );
  }
  const rules = await restoreRules(tem, db, userId, doc.rules ?? [], now);
  await restoreSchedules(db, userId, doc.schedules ?? [], ids, now);
  await restoreTransfers(db, userId, spools.of, ids.transactions, now);
  await restorePlan(
    db,
    userId,
    doc.plan && { assigned: spools.of['plan.assigned'], moves: spools.of['plan.moves'], holds: doc.plan.holds },
    ids.categories,
    now,
  );
  const imported = {
    accounts: doc.accounts.length,
    categories: doc.categories.length,
    batches: doc.batches.length,
    transactions: transactionCount,
    budgets: doc.budgets.length,
    lineItems,
    envelopes: doc.envelopes.length,
    rules,
    schedules: doc.schedules?.length ?? 0,
    planAssigned: doc.plan?.assigned.length ?? 0,
    planMoves: doc.plan?.moves.length ?? 0,
    planHolds: doc.plan?.holds.length ?? 0,
  };
  return {
    message: `Restored ${plural(imported.transactions, 'transaction')}, ${plural(imported.accounts, 'account')}, ${plural(imported.categories, 'category')}, ${plural(imported.budgets, 'budget')} and ${plural(imported.envelopes, 'envelope')}${rules ? ` (and ${plural(rules, 'rule')})` : ''}${imported.schedules ? ` (and ${plural(imported.schedules, 'schedule')})` : ''}`,
    imported,
  };
}

async function restoreAccounts(
  db: SqlTx,
  userId: number,
  doc: CheckedDocument,
  { now, home }: { now: string; home: string },
): Promise<Map<number, number>> {
  const ids = new Map<number, number>();
  const openings = await openingBalances(doc, now);
  for (const a of doc.accounts) {
    await pause();
    const opening = must(openings.get(a.id), 'every account of the document has an opening balance');
    ids.set(
      a.id,
      await db.insertId(
        'insert into account (user_id, name, name_key, type, opening_balance, opening_date, apply_suggestions, on_budget, currency, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [
          userId,
          a.name,
          nameKey(a.name),
          a.type,
          opening.balance,
          opening.date,
          a.applySuggestions !== false,
          a.onBudget ?? defaultOnBudget(a.type),
          a.currency ?? home,
          a.createdAt ?? now,
        ],
      ),
    );
  }
  return ids;
}

async function restoreCategories(
  db: SqlTx,
  userId: number,
  doc: CheckedDocument,
  now: string,
): Promise<Map<number, number>> {
  const ids = new Map<number, number>();
  const kinds = categoryKinds(doc);
  for (const c of doc.categories) {
    await pause();
    ids.set(
      c.id,
      await db.insertId(
        `insert into category (user_id, name, name_key, kind, hidden, rolls_overspending_from, target_type, target_amount,
           target_date, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          userId,
          c.name,
          nameKey(c.name),
          kinds.get(c.id),
          c.hidden ?? false,
          c.rollsOverspendingFrom ?? null,
          ...targetColumns(c.target),
          c.createdAt ?? now,
        ],
      ),
    );
  }
  return ids;
}

async function restoreBatches(
  db: SqlTx,
  userId: number,
  doc: CheckedDocument,
  accounts: ReadonlyMap<number, number>,
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const b of doc.batches) {
    await pause();
    const id = randomUUID();
    ids.set(b.id, id);
    await db.run(
      'insert into batch (id, user_id, account_id, upload_date, transaction_count, file_name, date_format) values (?, ?, ?, ?, ?, ?, ?)',
      [
        id,
        userId,
        b.accountId === null ? null : newIdOf(accounts, b.accountId, 'account'),
        b.uploadDate,
        b.transactionCount,
        b.fileName,
        b.dateFormat,
      ],
    );
  }
  return ids;
}

/** Rows written a statement (and ids reserved at once, and texts read back from the spool) while restoring transactions. */
const RESTORE_SLICE = 2000;

/**
 * Rows go in in the document's order, a slice a statement, each with an id reserved for it: each row's facts
 * joined with its texts, read back from the spool a slice at a time. A part whose parent comes earlier names it at
 * once; a part that comes first gets its parent once both exist.
 */
async function restoreTransactions(
  db: SqlTx,
  userId: number,
  { facts, spool }: { facts: TransactionFacts[]; spool: RowSpool },
  ids: Omit<RestoredIds, 'transactions'>,
  now: string,
): Promise<Map<number, number>> {
  const transactionIds = new Map<number, number>();
  const lateParents: [number, number][] = [];
  let at = 0;
  for await (const slice of spool.slices<TransactionTexts>(RESTORE_SLICE)) {
    const reserved = await reserveTransactionIds(db, slice.length);
    const rows: RestoredRow[] = [];
    for (const [
      i,
      [description, bankDescription, splitNote, memo, createdAt, categorySource, cleared],
    ] of slice.entries()) {
      await pause();
      const t = must(facts[at + i], 'the spool holds the texts of the transactions, in their order');
      const id = must(reserved[i], 'an id is reserved for every row of the slice');
      const parent = t.parentId === null ? null : (transactionIds.get(t.parentId) ?? null);
      rows.push([
        id,
        userId,
        t.accountId === null ? null : newIdOf(ids.accounts, t.accountId, 'account'),
        t.categoryId === null ? null : newIdOf(ids.categories, t.categoryId, 'category'),
        t.categoryId === null ? null : (categorySource ?? null),
        t.postDate,
        description,
        bankDescription,
        t.amount,
        t.type,
        t.isSplit,
        parent,
        splitNote,
        t.batchId === null ? null : newIdOf(ids.batches, t.batchId, 'batch'),
        createdAt ?? now,
        t.originalAmount ?? null,
        t.originalCurrency ?? null,
        memo,
        cleared ?? 'uncleared',
      ]);
      transactionIds.set(t.id, id);
      if (t.parentId !== null && parent === null) lateParents.push([id, t.parentId]);
    }
    await insertRestoredTransactions(db, rows);
    at += slice.length;
  }
  for (let start = 0; start < lateParents.length; start += RESTORE_SLICE) {
    await pause();
    await setRestoredParents(
      db,
      userId,
      lateParents
        .slice(start, start + RESTORE_SLICE)
        .map(
          ([id, parentId]) =>
            [id, must(transactionIds.get(parentId), 'a split part names a transaction of the document')] as const,
        ),
    );
  }
  return transactionIds;
}

/** The budgets with their line items; answers how many line items. */
async function restoreBudgets(db: SqlTx, userId: number, doc: CheckedDocument, now: string): Promise<number> {
  let lineItems = 0;
  for (const b of doc.budgets) {
    await pause();
    const budgetId = await db.insertId(
      'insert into budget (user_id, name, start_date, end_date, amount, created_at) values (?, ?, ?, ?, ?, ?)',
      [userId, b.name, b.startDate, b.endDate, b.amount, b.createdAt ?? now],
    );
    for (const item of b.lineItems) {
      await pause();
      await db.insertId(
        'insert into line_item (user_id, budget_id, name, amount, type, related_categories, created_at) values (?, ?, ?, ?, ?, ?, ?)',
        [
          userId,
          budgetId,
          item.name,
          item.amount,
          item.type,
          JSON.stringify(item.relatedCategories),
          item.createdAt ?? now,
        ],
      );
      lineItems += 1;
    }
  }
  return lineItems;
}

/** The rules (a rule's category is created when missing, as saving the rule would); answers how many. */
async function restoreRules(
  tem: EntityManager,
  db: SqlTx,
  userId: number,
  rules: NonNullable<UserDataDocument['rules']>,
  now: string,
): Promise<number> {
  await ensureCategories(
    tem,
    userId,
    rules.flatMap((r) => (r.actions.category ? [r.actions.category] : [])),
  );
  // Rule names are distinct; a document written before that was kept may repeat one.
  const ruleNames = new Set<string>();
  for (const r of rules) {
    await pause();
    const name = freeName(r.name, ruleNames);
    ruleNames.add(nameKey(name));
    await db.insertId(
      'insert into rule (user_id, name, name_key, conditions, actions, priority, enabled, created_at) values (?, ?, ?, ?, ?, ?, ?, ?)',
      [
        userId,
        name,
        nameKey(name),
        JSON.stringify(r.conditions),
        JSON.stringify(r.actions),
        r.priority,
        r.enabled,
        r.createdAt ?? now,
      ],
    );
  }
  return rules.length;
}
