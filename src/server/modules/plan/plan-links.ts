import type { EntityManager } from '@mikro-orm/knex';
import { Category } from '../categories/category.entity';
import { User } from '../users/user.entity';
import { type ChangeRecorder, recorded } from '../history/recorder';
import { PlanAssigned, PlanHold, PlanMove } from './plan.entity';

/** How many months of the plan name a category (assigned amounts and moves). */
export async function planUsage(em: EntityManager, userId: number, categoryId: number): Promise<number> {
  const months = new Set<string>();
  for (const row of await em.find(PlanAssigned, { user: userId, category: categoryId })) months.add(row.month);
  const moves = await em.find(PlanMove, {
    user: userId,
    $or: [{ fromCategory: categoryId }, { toCategory: categoryId }],
  });
  for (const move of moves) months.add(move.month);
  return months.size;
}

/** Moves a category's plan into another's: assigned amounts add up month by month; moves name the other. */
export async function mergePlan(em: EntityManager, userId: number, from: number, into: number): Promise<void> {
  for (const row of await em.find(PlanAssigned, { user: userId, category: from })) {
    const target = await em.findOne(PlanAssigned, { user: userId, category: into, month: row.month });
    if (target) target.amount += row.amount;
    else
      em.create(PlanAssigned, {
        user: em.getReference(User, userId),
        category: em.getReference(Category, into),
        month: row.month,
        amount: row.amount,
      });
    em.remove(row);
  }
  // Through the loaded entities: removing the category afterwards must find none still naming it.
  const moves = await em.find(PlanMove, { user: userId, $or: [{ fromCategory: from }, { toCategory: from }] });
  for (const move of moves) {
    if (move.fromCategory?.id === from) move.fromCategory = em.getReference(Category, into);
    if (move.toCategory?.id === from) move.toCategory = em.getReference(Category, into);
  }
  await em.flush();
}

/** The plan's rows of one month, or of some categories: what a change to the plan may touch. */
async function planRowIds(
  em: EntityManager,
  userId: number,
  where: { month: string } | { categories: number[] },
): Promise<Record<'plan_assigned' | 'plan_move' | 'plan_hold', number[]>> {
  const ids = (rows: { id: number }[]) => rows.map((row) => row.id);
  if ('month' in where) {
    const { month } = where;
    return {
      plan_assigned: ids(await em.find(PlanAssigned, { user: userId, month }, { fields: ['id'] })),
      plan_move: ids(await em.find(PlanMove, { user: userId, month }, { fields: ['id'] })),
      plan_hold: ids(await em.find(PlanHold, { user: userId, month }, { fields: ['id'] })),
    };
  }
  const { categories } = where;
  return {
    plan_assigned: ids(await em.find(PlanAssigned, { user: userId, category: categories }, { fields: ['id'] })),
    plan_move: ids(
      await em.find(
        PlanMove,
        { user: userId, $or: [{ fromCategory: categories }, { toCategory: categories }] },
        { fields: ['id'] },
      ),
    ),
    plan_hold: [],
  };
}

/** Touches the plan rows of a month or of some categories before a change. */
export async function touchPlan(
  em: EntityManager,
  userId: number,
  recorder: ChangeRecorder,
  where: { month: string } | { categories: number[] },
): Promise<void> {
  for (const [table, ids] of Object.entries(await planRowIds(em, userId, where)))
    await recorder.touch(table as keyof Awaited<ReturnType<typeof planRowIds>>, ids);
}

/** Names every plan row of a month or of some categories as created when it was not touched before. */
export async function noteCreatedPlan(
  em: EntityManager,
  userId: number,
  recorder: ChangeRecorder,
  where: { month: string } | { categories: number[] },
): Promise<void> {
  for (const [table, ids] of Object.entries(await planRowIds(em, userId, where)))
    recorder.created(table as keyof Awaited<ReturnType<typeof planRowIds>>, ids);
}

/** A change to one month of the plan, recorded as one history entry with every plan row it added. */
export async function recordedPlanChange<T>(
  em: EntityManager,
  userId: number,
  month: string,
  work: (tx: EntityManager) => Promise<T>,
  summary: string,
): Promise<T> {
  return recorded(
    em,
    userId,
    'plan',
    async (tx, recorder) => {
      await touchPlan(tx, userId, recorder, { month });
      const result = await work(tx);
      await noteCreatedPlan(tx, userId, recorder, { month });
      return result;
    },
    () => summary,
  );
}
