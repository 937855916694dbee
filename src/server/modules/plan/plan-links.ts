import type { EntityManager } from '@mikro-orm/knex';
import { Category } from '../categories/category.entity';
import { User } from '../users/user.entity';
import { PlanAssigned, PlanMove } from './plan.entity';

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
