import type { EntityManager } from '@mikro-orm/knex';
import { AppError } from '../../../shared/errors';
import { formatCents } from '../../../shared/money';
import { nameKey } from '../../../shared/names';
import {
  neededFor,
  planMonth,
  type AssignedAmount,
  type HeldAmount,
  type PlanMonthFigures,
} from '../../../shared/plan/engine';
import { addMonths, monthRange } from '../../../shared/plan/months';
import { toCategoryDto } from '../categories/categories.service';
import { Category } from '../categories/category.entity';
import type { CategoryDto } from '../../../shared/schemas/categories';
import type {
  CategoryRef,
  FillInput,
  FillMode,
  HoldInput,
  MoveMoneyInput,
  PlanCategoryDto,
  PlanDto,
  SetAssignedInput,
} from '../../../shared/schemas/plan';
import { dataVersion } from '../../db/data-version';
import { selectRows } from '../../db/sql';
import { readsOf, type PlanMonthSum } from '../../db/transaction-reads';
import { Envelope } from '../envelopes/envelope.entity';
import { User } from '../users/user.entity';
import { recordedPlanChange } from './plan-links';
import { PlanAssigned, PlanHold, PlanMove } from './plan.entity';

/** Everything the plan of a month is computed from, read in one go. */
interface PlanReads {
  categories: CategoryDto[];
  sums: PlanMonthSum[];
  assigned: AssignedAmount[];
  held: HeldAmount[];
}

/** The user's categories by name: what a change needs to resolve the categories it names. */
async function readCategories(em: EntityManager, userId: number): Promise<CategoryDto[]> {
  return (await em.find(Category, { user: userId }, { orderBy: { nameKey: 'asc', id: 'asc' } })).map(toCategoryDto);
}

async function readPlanInputs(em: EntityManager, userId: number, month: string): Promise<PlanReads> {
  const categories = await readCategories(em, userId);
  const sums = await readsOf(em).planMonthSums(userId, monthRange(month).end);
  return { categories, sums, ...(await readPlanRows(em, userId, month)) };
}

/** The plan's own rows up to the month: what a change to the plan changes. */
async function readPlanRows(
  em: EntityManager,
  userId: number,
  month: string,
): Promise<Pick<PlanReads, 'assigned' | 'held'>> {
  // Plain rows, not entities: a plan of some years holds thousands of assigned amounts, read on every answer.
  const assigned = await selectRows<{ category_id: number; month: string; amount: number }>(
    em,
    'select category_id, month, amount from plan_assigned where user_id = ? and month <= ?',
    [userId, month],
  );
  const held = await selectRows<{ month: string; amount: number }>(
    em,
    'select month, amount from plan_hold where user_id = ? and month <= ?',
    [userId, month],
  );
  return {
    assigned: assigned.map((row) => ({ categoryId: row.category_id, month: row.month, amount: row.amount })),
    held,
  };
}

/**
 * The month's plan after a change to the plan's own rows: the categories (and the sums, when read) from before the
 * change still hold, since a change to the plan moves no transaction and renames no category.
 */
async function planAfterChange(
  em: EntityManager,
  userId: number,
  month: string,
  before: Pick<PlanReads, 'categories'> & Partial<Pick<PlanReads, 'sums'>>,
): Promise<PlanDto> {
  const sums = before.sums ?? (await readsOf(em).planMonthSums(userId, monthRange(month).end));
  return planAnswer(em, userId, month, {
    categories: before.categories,
    sums,
    ...(await readPlanRows(em, userId, month)),
  });
}

function figuresOf(reads: PlanReads, month: string): PlanMonthFigures {
  return planMonth({ ...reads, categories: reads.categories }, month);
}

/** Each category key's envelope: the first by name that holds it. */
async function envelopeOfCategory(em: EntityManager, userId: number): Promise<Map<string, string>> {
  const envelopes = await em.find(Envelope, { user: userId }, { orderBy: { name: 'asc', id: 'asc' } });
  const out = new Map<string, string>();
  for (const envelope of envelopes)
    for (const name of envelope.categories) if (!out.has(nameKey(name))) out.set(nameKey(name), envelope.name);
  return out;
}

function isZeroRow(row: PlanCategoryDto): boolean {
  return row.assigned === 0 && row.activity === 0 && row.carryover === 0 && row.available === 0;
}

function sum<T>(rows: readonly T[], figure: (row: T) => number): number {
  return rows.reduce((total, row) => total + figure(row), 0);
}

async function planAnswer(em: EntityManager, userId: number, month: string, reads: PlanReads): Promise<PlanDto> {
  const figures = figuresOf(reads, month);
  const byId = new Map(reads.categories.map((category) => [category.id, category]));
  const envelopes = await envelopeOfCategory(em, userId);
  const categories = figures.categories
    .map((row): PlanCategoryDto => {
      const category = byId.get(row.categoryId) as CategoryDto;
      return {
        category: row.categoryId,
        name: category.name,
        envelope: envelopes.get(nameKey(category.name)) ?? null,
        hidden: category.hidden,
        assigned: row.assigned,
        activity: row.activity,
        carryover: row.carryover,
        available: row.available,
        rollsOverspending: row.rollsOverspending,
        target: category.target,
        needed: neededFor(category.target, row, month),
      };
    })
    .filter((row) => !row.hidden || !isZeroRow(row));
  const moves = await em.find(PlanMove, { user: userId, month }, { orderBy: { id: 'asc' } });
  const { homeCurrency } = await em.findOneOrFail(User, { id: userId }, { fields: ['homeCurrency'] });
  return {
    month,
    currency: homeCurrency,
    noRate: sum(reads.sums, (row) => row.missing ?? 0),
    toAssign: figures.toAssign,
    income: figures.income,
    fromLastMonth: figures.fromLastMonth,
    overspentLastMonth: figures.overspentLastMonth,
    overspentFrom: figures.overspentFrom.map((row) => ({
      category: row.categoryId,
      name: byId.get(row.categoryId)?.name ?? '',
      amount: row.amount,
    })),
    assigned: sum(categories, (row) => row.assigned),
    activity: sum(categories, (row) => row.activity),
    available: sum(categories, (row) => row.available),
    held: figures.held,
    holdable: Math.max(0, figures.toAssign + figures.held),
    categories,
    incomeCategories: figures.incomeCategories
      .map((row) => ({ category: row.categoryId, name: byId.get(row.categoryId)?.name ?? '', activity: row.activity }))
      .filter((row) => row.activity !== 0 || !byId.get(row.category)?.hidden),
    uncategorized: figures.uncategorized,
    moves: moves.map((move) => ({
      id: move.id,
      date: move.date,
      from: move.fromCategory?.id ?? null,
      to: move.toCategory?.id ?? null,
      amount: move.amount,
    })),
  };
}

/**
 * Answers kept per user and month while the database has not changed (dataVersion): a month read again, or the
 * months of a year read in a row, answer without reading or computing anything. Bounded per user and in users.
 * A kept answer also keeps its JSON once written (`json`), so REST sends the same bytes again.
 */
const KEPT_MONTHS = 36;
const KEPT_USERS = 64;
interface KeptAnswer {
  plan: PlanDto;
  json: Buffer | null;
}
type KeptUsers = Map<number, { token: string; months: Map<string, KeptAnswer> }>;
const kept = new WeakMap<object, KeptUsers>();

export async function getPlan(em: EntityManager, userId: number, month: string): Promise<PlanDto> {
  return (await planOf(em, userId, month)).plan;
}

/**
 * The month's plan with its JSON when the answer is kept: written once and then the same bytes for every read
 * until a write (REST sends them as they are, their compressed forms kept with them). Null when not kept.
 */
export async function getPlanWithJson(
  em: EntityManager,
  userId: number,
  month: string,
): Promise<{ plan: PlanDto; json: Buffer | null }> {
  const { plan, kept: answer } = await planOf(em, userId, month);
  if (!answer) return { plan, json: null };
  answer.json ??= Buffer.from(JSON.stringify(plan));
  return { plan, json: answer.json };
}

/** The month's plan, and where it is kept (null when it is not). */
async function planOf(
  em: EntityManager,
  userId: number,
  month: string,
): Promise<{ plan: PlanDto; kept: KeptAnswer | null }> {
  const version = await dataVersion(em);
  if (!version)
    return { plan: await planAnswer(em, userId, month, await readPlanInputs(em, userId, month)), kept: null };
  let users = kept.get(version.owner);
  if (!users) kept.set(version.owner, (users = new Map() as KeptUsers));
  let mine = users.get(userId);
  if (mine?.token !== version.token) {
    users.delete(userId);
    if (users.size >= KEPT_USERS) users.delete(users.keys().next().value as number);
    users.set(userId, (mine = { token: version.token, months: new Map() }));
  }
  const found = mine.months.get(month);
  if (found) return { plan: found.plan, kept: found };
  const answer: KeptAnswer = {
    plan: await planAnswer(em, userId, month, await readPlanInputs(em, userId, month)),
    json: null,
  };
  if (mine.months.size >= KEPT_MONTHS) mine.months.delete(mine.months.keys().next().value as string);
  mine.months.set(month, answer);
  return { plan: answer.plan, kept: answer };
}

/** The expense category a reference names; 404 when the user has none so named, 400 for an income one. */
function resolveCategory(categories: readonly CategoryDto[], ref: CategoryRef, field: string): CategoryDto {
  const found =
    typeof ref === 'number'
      ? categories.find((category) => category.id === ref)
      : categories.find((category) => nameKey(category.name) === nameKey(ref));
  if (!found)
    throw new AppError('NOT_FOUND', `${field}: category ${typeof ref === 'number' ? ref : `'${ref}'`} not found`);
  if (found.kind === 'income')
    throw new AppError(
      'BAD_REQUEST',
      `${field}: '${found.name}' is an income category; its money goes to To Assign and is not assigned`,
    );
  return found;
}

/** Adds `delta` to a category's assigned amount of the month (creating its row). */
async function addAssigned(
  em: EntityManager,
  userId: number,
  categoryId: number,
  month: string,
  change: (current: number) => number,
): Promise<void> {
  const row = await em.findOne(PlanAssigned, { user: userId, category: categoryId, month });
  const next = change(row?.amount ?? 0);
  if (row) row.amount = next;
  else
    em.create(PlanAssigned, {
      user: em.getReference(User, userId),
      category: em.getReference(Category, categoryId),
      month,
      amount: next,
    });
}

export async function setAssigned(
  em: EntityManager,
  userId: number,
  month: string,
  input: SetAssignedInput,
): Promise<PlanDto> {
  return recordedPlanChange(
    em,
    userId,
    month,
    async (tx) => {
      // Only the categories are read before the change: the month's sums are read once, for the answer.
      const categories = await readCategories(tx, userId);
      const category = resolveCategory(categories, input.category, 'category');
      await addAssigned(tx, userId, category.id, month, () => input.amount);
      await tx.flush();
      return planAfterChange(tx, userId, month, { categories });
    },
    `Assigned ${formatCents(input.amount)} in the plan for ${month}`,
  );
}

export async function moveMoney(
  em: EntityManager,
  userId: number,
  month: string,
  input: MoveMoneyInput,
  today: string,
): Promise<PlanDto> {
  if (input.from === null && input.to === null)
    throw new AppError('BAD_REQUEST', 'from, to: name a category on at least one side (null is To Assign)');
  return recordedPlanChange(
    em,
    userId,
    month,
    async (tx) => {
      const categories = await readCategories(tx, userId);
      const from = input.from === null ? null : resolveCategory(categories, input.from, 'from');
      const to = input.to === null ? null : resolveCategory(categories, input.to, 'to');
      if (from && to && from.id === to.id) throw new AppError('BAD_REQUEST', 'to: must differ from from');
      if (from) await addAssigned(tx, userId, from.id, month, (current) => current - input.amount);
      if (to) await addAssigned(tx, userId, to.id, month, (current) => current + input.amount);
      tx.create(PlanMove, {
        user: tx.getReference(User, userId),
        month,
        fromCategory: from ? tx.getReference(Category, from.id) : null,
        toCategory: to ? tx.getReference(Category, to.id) : null,
        amount: input.amount,
        date: today,
        createdAt: new Date().toISOString(),
      });
      await tx.flush();
      return planAfterChange(tx, userId, month, { categories });
    },
    `Moved ${formatCents(input.amount)} in the plan for ${month}`,
  );
}

export async function setHold(em: EntityManager, userId: number, month: string, input: HoldInput): Promise<PlanDto> {
  return recordedPlanChange(
    em,
    userId,
    month,
    async (tx) => {
      const reads = await readPlanInputs(tx, userId, month);
      const figures = figuresOf(reads, month);
      const holdable = Math.max(0, figures.toAssign + figures.held);
      if (input.amount > holdable)
        throw new AppError(
          'BAD_REQUEST',
          `amount: To Assign has ${formatCents(holdable)} in ${month}; no more than that can be held`,
        );
      const row = await tx.findOne(PlanHold, { user: userId, month });
      if (row && input.amount === 0) tx.remove(row);
      else if (row) row.amount = input.amount;
      else if (input.amount > 0)
        tx.create(PlanHold, { user: tx.getReference(User, userId), month, amount: input.amount });
      await tx.flush();
      return planAfterChange(tx, userId, month, reads);
    },
    `Held ${formatCents(input.amount)} of ${month} for the next month`,
  );
}

const AVERAGE_MONTHS: Partial<Record<FillMode, number>> = { average3: 3, average6: 6, average12: 12 };

/** Average spending (a positive amount) of a category over the `count` months before `month`. */
function averageSpending(sums: readonly PlanMonthSum[], categoryId: number, month: string, count: number): number {
  const first = addMonths(month, -count);
  const total = sums
    .filter((row) => row.categoryId === categoryId && row.month >= first && row.month < month)
    .reduce((all, row) => all + row.amount, 0);
  return Math.max(0, Math.round(-total / count));
}

/** The assigned amount each mode gives a category. */
function filledAmount(
  mode: FillMode,
  category: CategoryDto,
  figures: PlanMonthFigures,
  reads: PlanReads,
  month: string,
): number {
  const row = figures.categories.find((candidate) => candidate.categoryId === category.id);
  const current = row?.assigned ?? 0;
  if (mode === 'zero') return 0;
  if (mode === 'targets') return row ? current + neededFor(category.target, row, month) : current;
  if (mode === 'lastMonth') {
    const before = addMonths(month, -1);
    return sum(
      reads.assigned.filter((a) => a.categoryId === category.id && a.month === before),
      (a) => a.amount,
    );
  }
  return averageSpending(reads.sums, category.id, month, AVERAGE_MONTHS[mode] ?? 1);
}

export async function fillMonth(em: EntityManager, userId: number, month: string, input: FillInput): Promise<PlanDto> {
  return recordedPlanChange(
    em,
    userId,
    month,
    async (tx) => {
      const reads = await readPlanInputs(tx, userId, month);
      const chosen =
        input.categories === undefined
          ? reads.categories.filter((category) => category.kind === 'expense' && !category.hidden)
          : input.categories.map((ref, i) => resolveCategory(reads.categories, ref, `categories.${i}`));
      const figures = figuresOf(reads, month);
      for (const category of new Set(chosen)) {
        const amount = filledAmount(input.mode, category, figures, reads, month);
        await addAssigned(tx, userId, category.id, month, () => amount);
      }
      await tx.flush();
      return planAfterChange(tx, userId, month, reads);
    },
    `Filled the plan for ${month} (${input.mode})`,
  );
}
