import type { EntityManager } from '@mikro-orm/knex';
import {
  findSharedCategories,
  overviewFromGroups,
  sharedCategoryMessage,
  type BudgetOverview,
  type NamedLineItem,
} from '../../../shared/budget';
import { AppError } from '../../../shared/errors';
import { MAX_LINE_ITEMS_PER_BUDGET } from '../../../shared/limits';
import type {
  BudgetDto,
  CreateBudgetInput,
  CreateLineItemInput,
  LineItemDto,
  LineItemType,
  SaveBudgetInput,
  SavedBudget,
  UpdateBudgetInput,
  UpdateLineItemInput,
} from '../../../shared/schemas/budgets';
import { readsOf } from '../../db/transaction-reads';
import { categoryKeysById } from '../categories/categories.service';
import { User } from '../users/user.entity';
import { Budget } from './budget.entity';
import { LineItem } from './line-item.entity';
import { findOwned } from '../../db/find-owned';
import { type ChangeRecorder, recorded } from '../history/recorder';

export function toBudgetDto(budget: Budget): BudgetDto {
  return {
    id: budget.id,
    name: budget.name,
    startDate: budget.startDate,
    endDate: budget.endDate,
    amount: budget.amount,
  };
}

export function toLineItemDto(item: LineItem): LineItemDto {
  return {
    id: item.id,
    budgetId: item.budget.id,
    name: item.name,
    amount: item.amount,
    type: item.type as LineItemType,
    relatedCategories: item.relatedCategories,
  };
}

async function ownBudget(em: EntityManager, userId: number, id: number): Promise<Budget> {
  return findOwned(em, Budget, userId, id);
}

async function ownLineItem(em: EntityManager, userId: number, id: number): Promise<LineItem> {
  return findOwned(em, LineItem, userId, id);
}

function tooManyLineItems(): AppError {
  return new AppError('BAD_REQUEST', `lineItems: A budget holds at most ${MAX_LINE_ITEMS_PER_BUDGET} line items`);
}

/** Refuses a budget growing past MAX_LINE_ITEMS_PER_BUDGET (so its sums stay exact). */
async function checkRoomFor(em: EntityManager, userId: number, budgetId: number, adding: number): Promise<void> {
  const count = await em.count(LineItem, { budget: budgetId, user: userId });
  if (count + adding > MAX_LINE_ITEMS_PER_BUDGET) throw tooManyLineItems();
}

function checkDates(startDate: string, endDate: string): void {
  if (startDate > endDate) throw new AppError('BAD_REQUEST', 'endDate: Start date must not be after end date');
}

/**
 * A category may be related to one line item of a budget only (else its transactions count
 * twice in the overview): 409 naming the category and the line item that already has it.
 * `items` are in order of precedence, the stored ones first.
 */
function checkSharedCategories(items: readonly NamedLineItem[]): void {
  const [shared] = findSharedCategories(items);
  if (shared)
    throw new AppError('CONFLICT', sharedCategoryMessage(shared), {
      category: shared.category,
      lineItem: shared.firstName,
    });
}

/** The other line items of a budget, as the category check reads them. */
async function otherLineItems(
  em: EntityManager,
  userId: number,
  budgetId: number,
  exceptId?: number,
): Promise<NamedLineItem[]> {
  const items = await em.find(LineItem, { budget: budgetId, user: userId }, { orderBy: { id: 'asc' } });
  return items
    .filter((item) => item.id !== exceptId)
    .map((item) => ({ name: item.name, relatedCategories: item.relatedCategories }));
}

export async function listBudgets(em: EntityManager, userId: number): Promise<BudgetDto[]> {
  const rows = await em.find(Budget, { user: userId }, { orderBy: { startDate: 'desc', id: 'desc' } });
  return rows.map(toBudgetDto);
}

export async function getBudget(em: EntityManager, userId: number, id: number): Promise<BudgetDto> {
  return toBudgetDto(await ownBudget(em, userId, id));
}

export async function createBudget(em: EntityManager, userId: number, input: CreateBudgetInput): Promise<BudgetDto> {
  return recorded(
    em,
    userId,
    'budget',
    async (tem, recorder) => {
      const budget = tem.create(Budget, {
        user: tem.getReference(User, userId),
        name: input.name,
        startDate: input.startDate,
        endDate: input.endDate,
        amount: input.amount,
        createdAt: new Date().toISOString(),
      });
      await tem.flush();
      recorder.created('budget', [budget.id]);
      return toBudgetDto(budget);
    },
    (budget) => `Created budget “${budget.name}”`,
  );
}

export async function updateBudget(
  em: EntityManager,
  userId: number,
  id: number,
  input: UpdateBudgetInput,
): Promise<BudgetDto> {
  return recorded(
    em,
    userId,
    'budget',
    async (tem, recorder) => {
      const budget = await ownBudget(tem, userId, id);
      const startDate = input.startDate ?? budget.startDate;
      const endDate = input.endDate ?? budget.endDate;
      checkDates(startDate, endDate);
      await recorder.touch('budget', [id]);
      if (input.name !== undefined) budget.name = input.name;
      budget.startDate = startDate;
      budget.endDate = endDate;
      if (input.amount !== undefined) budget.amount = input.amount;
      await tem.flush();
      return toBudgetDto(budget);
    },
    (budget) => `Changed budget “${budget.name}”`,
  );
}

/** Deleting a budget deletes its line items (foreign key cascade, in one statement). */
export async function deleteBudget(em: EntityManager, userId: number, id: number): Promise<{ message: string }> {
  return recorded(
    em,
    userId,
    'budget',
    async (tem, recorder) => {
      const budget = await ownBudget(tem, userId, id);
      await touchBudget(tem, userId, recorder, id);
      await tem.nativeDelete(LineItem, { budget: id, user: userId });
      await tem.nativeDelete(Budget, { id, user: userId });
      return { message: `Budget '${budget.name}' deleted` };
    },
    (answer) => answer.message,
  );
}

/** A budget and its line items, as they are before a change. */
async function touchBudget(tem: EntityManager, userId: number, recorder: ChangeRecorder, id: number): Promise<void> {
  await recorder.touch('budget', [id]);
  const items = await tem.find(LineItem, { budget: id, user: userId }, { fields: ['id'] });
  await recorder.touch(
    'line_item',
    items.map((item) => item.id),
  );
}

export async function listLineItems(em: EntityManager, userId: number, budgetId: number): Promise<LineItemDto[]> {
  await ownBudget(em, userId, budgetId);
  const items = await em.find(LineItem, { budget: budgetId, user: userId }, { orderBy: { id: 'asc' } });
  return items.map(toLineItemDto);
}

export async function createLineItem(
  em: EntityManager,
  userId: number,
  input: CreateLineItemInput,
): Promise<LineItemDto> {
  return recorded(
    em,
    userId,
    'budget',
    async (tem, recorder) => {
      const budget = await ownBudget(tem, userId, input.budgetId);
      await checkRoomFor(tem, userId, budget.id, 1);
      checkSharedCategories([...(await otherLineItems(tem, userId, budget.id)), input]);
      const item = tem.create(LineItem, {
        user: tem.getReference(User, userId),
        budget,
        name: input.name,
        amount: input.amount,
        type: input.type,
        relatedCategories: input.relatedCategories,
        createdAt: new Date().toISOString(),
      });
      await tem.flush();
      recorder.created('line_item', [item.id]);
      return toLineItemDto(item);
    },
    (item) => `Added line item “${item.name}”`,
  );
}

export async function updateLineItem(
  em: EntityManager,
  userId: number,
  id: number,
  input: UpdateLineItemInput,
): Promise<LineItemDto> {
  return recorded(
    em,
    userId,
    'budget',
    async (tem, recorder) => {
      const item = await ownLineItem(tem, userId, id);
      await recorder.touch('line_item', [id]);
      if (input.budgetId !== undefined && input.budgetId !== item.budget.id) {
        const target = await ownBudget(tem, userId, input.budgetId);
        await checkRoomFor(tem, userId, target.id, 1);
        item.budget = target;
      }
      const next = {
        name: input.name ?? item.name,
        relatedCategories: input.relatedCategories ?? item.relatedCategories,
      };
      checkSharedCategories([...(await otherLineItems(tem, userId, item.budget.id, item.id)), next]);
      if (input.name !== undefined) item.name = input.name;
      if (input.amount !== undefined) item.amount = input.amount;
      if (input.type !== undefined) item.type = input.type;
      if (input.relatedCategories !== undefined) item.relatedCategories = input.relatedCategories;
      await tem.flush();
      return toLineItemDto(item);
    },
    (item) => `Changed line item “${item.name}”`,
  );
}

export async function deleteLineItem(em: EntityManager, userId: number, id: number): Promise<{ message: string }> {
  return recorded(
    em,
    userId,
    'budget',
    async (tem, recorder) => {
      const item = await ownLineItem(tem, userId, id);
      await recorder.touch('line_item', [id]);
      tem.remove(item);
      await tem.flush();
      return { message: `Line item '${item.name}' deleted` };
    },
    (answer) => answer.message,
  );
}

/**
 * Writes a budget and all its line items in one database transaction: a failure
 * part-way leaves nothing half-saved. Creates the budget when no id is given.
 */
export async function saveBudget(em: EntityManager, userId: number, input: SaveBudgetInput): Promise<SavedBudget> {
  const budgetId = await recorded(
    em,
    userId,
    'budget',
    async (tem, recorder) => {
      const now = new Date().toISOString();
      let budget: Budget;
      if (input.id !== undefined) {
        budget = await ownBudget(tem, userId, input.id);
        await touchBudget(tem, userId, recorder, input.id);
        budget.name = input.name;
        budget.startDate = input.startDate;
        budget.endDate = input.endDate;
      } else {
        budget = tem.create(Budget, {
          user: tem.getReference(User, userId),
          name: input.name,
          startDate: input.startDate,
          endDate: input.endDate,
          amount: 0,
          createdAt: now,
        });
        await tem.flush();
        recorder.created('budget', [budget.id]);
      }
      const existing = input.id !== undefined ? await tem.find(LineItem, { budget: budget.id, user: userId }) : [];
      const kept =
        existing.length -
        new Set(input.deletedLineItemIds.filter((id) => existing.some((item) => item.id === id))).size;
      if (kept + input.lineItems.filter((fields) => fields.id === undefined).length > MAX_LINE_ITEMS_PER_BUDGET)
        throw tooManyLineItems();
      const byId = new Map(existing.map((item) => [item.id, item]));
      const added: LineItem[] = [];
      // The budget keeps its untouched items and the payload's: one line item per category among them.
      const sent = new Set([...input.deletedLineItemIds, ...input.lineItems.map((item) => item.id)]);
      checkSharedCategories([...existing.filter((item) => !sent.has(item.id)), ...input.lineItems]);
      for (const deletedId of input.deletedLineItemIds) {
        const item = byId.get(deletedId);
        if (!item) throw new AppError('NOT_FOUND', `Line item ${deletedId} not found in this budget`);
        tem.remove(item);
      }
      for (const fields of input.lineItems) {
        if (fields.id !== undefined) {
          const item = byId.get(fields.id);
          if (!item) throw new AppError('NOT_FOUND', `Line item ${fields.id} not found in this budget`);
          item.name = fields.name;
          item.amount = fields.amount;
          item.type = fields.type;
          item.relatedCategories = fields.relatedCategories;
        } else {
          added.push(
            tem.create(LineItem, {
              user: tem.getReference(User, userId),
              budget,
              name: fields.name,
              amount: fields.amount,
              type: fields.type,
              relatedCategories: fields.relatedCategories,
              createdAt: now,
            }),
          );
        }
      }
      await tem.flush();
      recorder.created(
        'line_item',
        added.map((item) => item.id),
      );
      return budget.id;
    },
    () => `Saved budget “${input.name}”`,
  );
  // A fresh identity map, in the caller's transaction when there is one (row-level security on PostgreSQL).
  const fresh = em.fork({ keepTransactionContext: true });
  return { budget: await getBudget(fresh, userId, budgetId), lineItems: await listLineItems(fresh, userId, budgetId) };
}

/** A budget's overview, with its transactions as the JSON array the database wrote. */
export interface BudgetOverviewParts {
  budget: BudgetDto;
  lineItems: LineItemDto[];
  transactionsJson: Buffer;
  overview: BudgetOverview;
}

/**
 * The budget, its line items, the transactions between its dates and the overview from one GROUP
 * BY (overviewFromGroups, equal to computeBudgetOverview of the rows). Over the answer cap is
 * refused (422: narrow the budget's dates), and so are sums too large to be exact (only possible
 * with rows stored before amounts were bounded).
 */
export async function budgetOverview(em: EntityManager, userId: number, id: number): Promise<BudgetOverviewParts> {
  const budget = await getBudget(em, userId, id);
  const lineItems = await listLineItems(em, userId, id);
  const categoryKey = await categoryKeysById(em, userId);
  try {
    const read = await readsOf(em).overview(userId, budget, categoryKey);
    const overview = overviewFromGroups(read.groups, read.countedRows, lineItems);
    const currency = (await em.findOneOrFail(User, { id: userId })).homeCurrency;
    const noRate = read.groups.reduce(
      (n, group) => n + (group.counted && !group.transfer ? (group.missing ?? 0) : 0),
      0,
    );
    return { budget, lineItems, transactionsJson: read.json, overview: { ...overview, currency, noRate } };
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new AppError(
      'UNPROCESSABLE',
      `The amounts of budget '${budget.name}' are too large to total exactly: lower the largest line items or amounts`,
    );
  }
}
