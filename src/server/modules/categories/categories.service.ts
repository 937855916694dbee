import { ChangeRecorder } from '../history/recorder';
import type { EntityManager } from '@mikro-orm/knex';
import {
  isReservedCategoryName,
  reservedCategoryMessage,
  reservedCategoryOnTransactionMessage,
} from '../../../shared/categories';
import { AppError } from '../../../shared/errors';
import type {
  CategoryDto,
  CategoryKind,
  CategoryMergeResult,
  CategoryTarget,
  CategoryUsage,
  CreateCategoryInput,
  UpdateCategoryInput,
} from '../../../shared/schemas/categories';
import { findOwned } from '../../db/find-owned';
import { LineItem } from '../budgets/line-item.entity';
import { Envelope } from '../envelopes/envelope.entity';
import { Rule } from '../rules/rule.entity';
import { Schedule } from '../schedules/schedule.entity';
import { Transaction } from '../transactions/transaction.entity';
import { mergePlan, noteCreatedPlan, planUsage, touchPlan } from '../plan/plan-links';
import { User } from '../users/user.entity';
import { Category } from './category.entity';
import { nameKey } from '../../../shared/names';
import { categoryKeyOf } from '../../../shared/envelopes/envelopes';
import { selectRows, TRANSACTION_TABLE } from '../../db/sql';

function targetOf(category: Category): CategoryTarget | null {
  const amount = category.targetAmount ?? null;
  if (amount === null) return null;
  if (category.targetType === 'byDate' && category.targetDate)
    return { type: 'byDate', amount, date: category.targetDate };
  if (category.targetType === 'monthly' || category.targetType === 'refill')
    return { type: category.targetType, amount };
  return null;
}

export function toCategoryDto(category: Category): CategoryDto {
  return {
    id: category.id,
    name: category.name,
    kind: category.kind === 'income' ? 'income' : 'expense',
    hidden: category.hidden,
    rollsOverspendingFrom: category.rollsOverspendingFrom ?? null,
    target: targetOf(category),
  };
}

export async function listCategories(em: EntityManager, userId: number): Promise<CategoryDto[]> {
  const rows = await em.find(Category, { user: userId }, { orderBy: { nameKey: 'asc', id: 'asc' } });
  return rows.map(toCategoryDto);
}

export async function createCategory(
  em: EntityManager,
  userId: number,
  input: CreateCategoryInput,
): Promise<CategoryDto> {
  const name = input.name.trim();
  if (isReservedCategoryName(name)) throw new AppError('BAD_REQUEST', reservedCategoryMessage(name));
  const existing = await em.findOne(Category, { user: userId, nameKey: nameKey(name) });
  if (existing) throw new AppError('CONFLICT', `Category '${existing.name}' already exists`);
  const category = em.create(Category, {
    user: em.getReference(User, userId),
    name,
    nameKey: nameKey(name),
    kind: input.kind ?? 'expense',
    hidden: false,
    createdAt: new Date().toISOString(),
  });
  await em.flush();
  return toCategoryDto(category);
}

/**
 * Finds each named category of the user, creating the missing ones (first spelling
 * wins), and answers their ids by lower-cased name. Runs inside the caller's transaction.
 * The reserved name 'Uncategorized' is never created and has no id: it means no category
 * (an import row in 'Uncategorized' is stored without one).
 */
export async function ensureCategories(
  em: EntityManager,
  userId: number,
  names: Iterable<string>,
): Promise<Map<string, number>> {
  const wanted = new Map<string, string>();
  for (const name of names) {
    const trimmed = name.trim();
    if (trimmed && !isReservedCategoryName(trimmed) && !wanted.has(nameKey(trimmed)))
      wanted.set(nameKey(trimmed), trimmed);
  }
  const ids = new Map<string, number>();
  if (wanted.size === 0) return ids;
  const existing = await em.find(Category, { user: userId, nameKey: { $in: [...wanted.keys()] } });
  for (const category of existing) ids.set(category.nameKey, category.id);
  const created: Category[] = [];
  const now = new Date().toISOString();
  for (const [key, name] of wanted) {
    if (ids.has(key)) continue;
    created.push(
      em.create(Category, {
        user: em.getReference(User, userId),
        name,
        nameKey: key,
        kind: 'expense',
        hidden: false,
        createdAt: now,
      }),
    );
  }
  if (created.length > 0) {
    await em.flush();
    for (const category of created) ids.set(category.nameKey, category.id);
  }
  return ids;
}

/**
 * The id of the named category (created when missing), or null for no category. The reserved
 * name is refused (400): a transaction without a category is sent without one.
 */
export async function resolveCategoryId(
  em: EntityManager,
  userId: number,
  name: string | null | undefined,
): Promise<number | null> {
  if (!name || !name.trim()) return null;
  if (isReservedCategoryName(name)) throw new AppError('BAD_REQUEST', reservedCategoryOnTransactionMessage(name));
  const ids = await ensureCategories(em, userId, [name]);
  return ids.get(nameKey(name)) ?? null;
}

/** The user's category keys by category id (a row without a category is 'uncategorized'). */
export async function categoryKeysById(
  em: EntityManager,
  userId: number,
): Promise<(categoryId: number | null) => string> {
  const rows = await selectRows<{ id: number; name_key: string }>(
    em,
    'select c.id, c.name_key from category c where c.user_id = ?',
    [userId],
  );
  const keys = new Map(rows.map((row) => [row.id, categoryKeyOf(row.name_key)]));
  return (categoryId) => (categoryId === null ? categoryKeyOf(null) : (keys.get(categoryId) ?? categoryKeyOf(null)));
}

export async function ownCategory(em: EntityManager, userId: number, id: number): Promise<Category> {
  return findOwned(em, Category, userId, id);
}

/** Replaces every name of `from` (any letter case) in a list of category names by `to`, once. */
function renamedList(names: readonly string[], fromKey: string, to: string): string[] | null {
  if (!names.some((name) => nameKey(name) === fromKey)) return null;
  const out: string[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    const next = nameKey(name) === fromKey ? to : name;
    if (seen.has(nameKey(next))) continue;
    seen.add(nameKey(next));
    out.push(next);
  }
  return out;
}

/**
 * Rules, line items and envelopes name categories rather than point at them: each mention of
 * `fromKey` now names `to`. Answers how many of each changed.
 */
async function renameMentions(
  em: EntityManager,
  userId: number,
  fromKey: string,
  to: string,
): Promise<Pick<CategoryUsage, 'rules' | 'lineItems' | 'envelopes'>> {
  let rules = 0;
  for (const rule of await em.find(Rule, { user: userId })) {
    if (rule.actions.category === undefined || nameKey(rule.actions.category) !== fromKey) continue;
    rule.actions = { ...rule.actions, category: to };
    rules++;
  }
  let lineItems = 0;
  for (const item of await em.find(LineItem, { user: userId })) {
    const next = renamedList(item.relatedCategories, fromKey, to);
    if (next === null) continue;
    item.relatedCategories = next;
    lineItems++;
  }
  let envelopes = 0;
  for (const envelope of await em.find(Envelope, { user: userId })) {
    const next = renamedList(envelope.categories, fromKey, to);
    if (next === null) continue;
    envelope.categories = next;
    envelopes++;
  }
  return { rules, lineItems, envelopes };
}

/** Everything that refers to the category, counted. */
export async function categoryUsage(em: EntityManager, userId: number, id: number): Promise<CategoryUsage> {
  const category = await ownCategory(em, userId, id);
  const key = category.nameKey;
  const transactions = await em.count(Transaction, { user: userId, category: id });
  const schedules = await em.count(Schedule, { user: userId, category: id });
  const rules = await em.find(Rule, { user: userId });
  const items = await em.find(LineItem, { user: userId });
  const envelopes = await em.find(Envelope, { user: userId });
  const planMonths = await planUsage(em, userId, id);
  const mentions = (names: readonly string[]) => names.some((name) => nameKey(name) === key);
  return {
    transactions,
    schedules,
    rules: rules.filter((rule) => rule.actions.category !== undefined && nameKey(rule.actions.category) === key).length,
    lineItems: items.filter((item) => mentions(item.relatedCategories)).length,
    envelopes: envelopes.filter((envelope) => mentions(envelope.categories)).length,
    planMonths,
  };
}

export async function updateCategory(
  em: EntityManager,
  userId: number,
  id: number,
  input: UpdateCategoryInput,
): Promise<CategoryDto> {
  return em.transactional(async (tx) => {
    const category = await ownCategory(tx, userId, id);
    const recorder = new ChangeRecorder(tx, userId);
    await recorder.touch('category', [id]);
    const before = category.name;
    if (input.name !== undefined && input.name !== category.name) await touchMentions(tx, userId, recorder);
    if (input.name !== undefined && input.name !== category.name) {
      const name = input.name.trim();
      if (isReservedCategoryName(name)) throw new AppError('BAD_REQUEST', reservedCategoryMessage(name));
      const clash = await tx.findOne(Category, { user: userId, nameKey: nameKey(name) });
      if (clash && clash.id !== id) throw new AppError('CONFLICT', `Category '${clash.name}' already exists`);
      await renameMentions(tx, userId, category.nameKey, name);
      category.name = name;
      category.nameKey = nameKey(name);
    }
    if (input.kind !== undefined) category.kind = input.kind satisfies CategoryKind;
    if (input.hidden !== undefined) category.hidden = input.hidden;
    if (input.rollsOverspendingFrom !== undefined) category.rollsOverspendingFrom = input.rollsOverspendingFrom;
    if (input.target !== undefined) {
      category.targetType = input.target?.type ?? null;
      category.targetAmount = input.target?.amount ?? null;
      category.targetDate = input.target?.type === 'byDate' ? input.target.date : null;
    }
    await tx.flush();
    const renamed = before !== category.name ? `Renamed category ${before} to ${category.name}` : null;
    await recorder.finish('category', renamed ?? `Changed category ${category.name}`);
    return toCategoryDto(category);
  });
}

/** Rules, line items, envelopes and schedules that may name a category, for the history of a rename or merge. */
async function touchMentions(tx: EntityManager, userId: number, recorder: ChangeRecorder): Promise<void> {
  const ids = async (table: 'rule' | 'line_item' | 'envelope' | 'schedule') =>
    (await selectRows<{ id: number }>(tx, `select id from ${table} where user_id = ?`, [userId])).map((row) => row.id);
  for (const table of ['rule', 'line_item', 'envelope', 'schedule'] as const)
    await recorder.touch(table, await ids(table));
}

/**
 * Moves every transaction, split part, schedule, rule, line item, envelope and plan figure of
 * `id` to `into`, then removes `id`. One transaction: all of it or nothing.
 */
export async function mergeCategory(
  em: EntityManager,
  userId: number,
  id: number,
  into: number,
): Promise<CategoryMergeResult> {
  if (id === into) throw new AppError('BAD_REQUEST', 'into: a category cannot be merged into itself');
  return em.transactional(async (tx) => {
    const category = await ownCategory(tx, userId, id);
    const target = await tx.findOne(Category, { id: into, user: userId });
    if (!target) throw new AppError('NOT_FOUND', `into: category ${into} not found`);
    const planMonths = await planUsage(tx, userId, id);
    const recorder = new ChangeRecorder(tx, userId);
    await touchPlan(tx, userId, recorder, { categories: [id, into] });
    await mergePlan(tx, userId, id, into);
    await noteCreatedPlan(tx, userId, recorder, { categories: [into] });
    await recorder.touch('category', [id, into]);
    await touchMentions(tx, userId, recorder);
    const moving = await selectRows<{ id: number }>(
      tx,
      `select id from ${TRANSACTION_TABLE} where user_id = ? and category_id = ?`,
      [userId, id],
    );
    await recorder.touchTransactions(moving.map((row) => row.id));
    const transactions = await tx.nativeUpdate(Transaction, { user: userId, category: id }, { category: into });
    const schedules = await tx.nativeUpdate(Schedule, { user: userId, category: id }, { category: into });
    const mentions = await renameMentions(tx, userId, category.nameKey, target.name);
    await tx.flush();
    tx.remove(category);
    await tx.flush();
    await recorder.finish(
      'category',
      `Merged category ${category.name} into ${target.name} (${transactions} transactions)`,
    );
    return { category: toCategoryDto(target), moved: { transactions, schedules, ...mentions, planMonths } };
  });
}

function describeUsage(usage: CategoryUsage): string {
  const parts: string[] = [];
  const add = (count: number, one: string, many: string) => {
    if (count > 0) parts.push(`${count} ${count === 1 ? one : many}`);
  };
  add(usage.transactions, 'transaction', 'transactions');
  add(usage.rules, 'rule', 'rules');
  add(usage.lineItems, 'line item', 'line items');
  add(usage.envelopes, 'envelope', 'envelopes');
  add(usage.schedules, 'schedule', 'schedules');
  add(usage.planMonths, 'month of the plan', 'months of the plan');
  return parts.join(', ');
}

/**
 * Deletes a category nothing refers to; with `reassignTo`, first moves everything to that
 * category (as a merge does). Refused with 409, naming what refers to it, otherwise.
 */
export async function deleteCategory(
  em: EntityManager,
  userId: number,
  id: number,
  reassignTo: number | undefined,
): Promise<{ message: string }> {
  if (reassignTo !== undefined) {
    if (reassignTo === id) throw new AppError('BAD_REQUEST', 'reassignTo: must name another category');
    const category = await ownCategory(em, userId, id);
    const name = category.name;
    const result = await mergeCategory(em, userId, id, reassignTo).catch((error: unknown) => {
      if (error instanceof AppError && error.message.startsWith('into:'))
        throw new AppError(error.code, error.message.replace(/^into:/, 'reassignTo:'));
      throw error;
    });
    return { message: `Category '${name}' deleted; what used it now uses '${result.category.name}'` };
  }
  return em.transactional(async (tx) => {
    const category = await ownCategory(tx, userId, id);
    const usage = await categoryUsage(tx, userId, id);
    const used = describeUsage(usage);
    if (used)
      throw new AppError(
        'CONFLICT',
        `Category '${category.name}' is still used by ${used}; name another category with ?reassignTo= to move them`,
        { ...usage },
      );
    const recorder = new ChangeRecorder(tx, userId);
    await recorder.touch('category', [id]);
    tx.remove(category);
    await tx.flush();
    await recorder.finish('category', `Deleted category ${category.name}`);
    return { message: `Category '${category.name}' deleted` };
  });
}
