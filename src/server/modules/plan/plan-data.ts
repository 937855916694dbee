/** A user's monthly plan in the export document, and back in on restore (categories are in by then, under new ids). */
import type { EntityManager } from '@mikro-orm/knex';
import type { CategoryKind, CategoryTarget } from '../../../shared/schemas/categories';
import type { CheckedDocument, UserDataDocument } from '../../../shared/schemas/user-data';
import { must } from '../../../shared/must';
import { selectRows, valuesSql, type SqlTx } from '../../db/sql';
import { pause } from '../../common/pause';
import type { RowSpool } from '../user-data/row-spool';

type ExportedPlan = NonNullable<UserDataDocument['plan']>;
type ExportedCategory = UserDataDocument['categories'][number];

export async function exportPlan(em: EntityManager, userId: number): Promise<ExportedPlan> {
  const assigned = await selectRows<{ category_id: number; month: string; amount: number }>(
    em,
    'select category_id, month, amount from plan_assigned where user_id = ? order by month, category_id',
    [userId],
  );
  const moves = await selectRows<{
    month: string;
    from_category_id: number | null;
    to_category_id: number | null;
    amount: number;
    date: string;
    created_at: string;
  }>(
    em,
    'select month, from_category_id, to_category_id, amount, date, created_at from plan_move where user_id = ? order by id',
    [userId],
  );
  const holds = await selectRows<{ month: string; amount: number }>(
    em,
    'select month, amount from plan_hold where user_id = ? order by month',
    [userId],
  );
  return {
    assigned: assigned.map((row) => ({ categoryId: row.category_id, month: row.month, amount: row.amount })),
    moves: moves.map((move) => ({
      month: move.month,
      fromCategoryId: move.from_category_id,
      toCategoryId: move.to_category_id,
      amount: move.amount,
      date: move.date,
      createdAt: move.created_at,
    })),
    holds: holds.map((hold) => ({ month: hold.month, amount: hold.amount })),
  };
}

/** The plan settings of a category row as the document writes them. */
export function exportedCategoryPlan(row: {
  kind: string;
  hidden: number | boolean;
  rolls_overspending_from: string | null;
  target_type: string | null;
  target_amount: number | string | null;
  target_date: string | null;
}): Pick<ExportedCategory, 'kind' | 'hidden' | 'rollsOverspendingFrom' | 'target'> {
  let target: CategoryTarget | null = null;
  if (row.target_type !== null && row.target_amount !== null) {
    const amount = Number(row.target_amount);
    target =
      row.target_type === 'byDate'
        ? { type: 'byDate', amount, date: row.target_date ?? '' }
        : { type: row.target_type as 'monthly' | 'refill', amount };
  }
  return {
    kind: row.kind as CategoryKind,
    hidden: Boolean(row.hidden),
    rollsOverspendingFrom: row.rolls_overspending_from,
    target,
  };
}

/**
 * Each category's kind: as the document says, or for a document written before kinds, income when most
 * of its whole transactions are money in (as the upgrade of a database decides).
 */
export function categoryKinds(doc: Pick<CheckedDocument, 'transactions' | 'categories'>): Map<number, CategoryKind> {
  const balance = new Map<number, number>();
  for (const t of doc.transactions)
    if (t.categoryId !== null && !t.isSplit && t.amount !== 0)
      balance.set(t.categoryId, (balance.get(t.categoryId) ?? 0) + (t.amount > 0 ? 1 : -1));
  return new Map(
    doc.categories.map((c) => [c.id, c.kind ?? ((balance.get(c.id) ?? 0) > 0 ? 'income' : 'expense')] as const),
  );
}

/** The target columns of a category row. */
export function targetColumns(
  target: CategoryTarget | null | undefined,
): [string | null, number | null, string | null] {
  if (!target) return [null, null, null];
  return [target.type, target.amount, target.type === 'byDate' ? target.date : null];
}

/** The plan's rows written a statement. */
const PLAN_ROWS_A_STATEMENT = 500;

/**
 * Restores the plan's assigned amounts and moves (read back from the restore's spools in the document's order, a
 * statement for many rows) and its holds.
 */
export async function restorePlan(
  db: SqlTx,
  userId: number,
  plan: { assigned: RowSpool; moves: RowSpool; holds: ExportedPlan['holds'] } | undefined,
  categoryIds: ReadonlyMap<number, number>,
  now: string,
): Promise<void> {
  if (!plan) return;
  const newId = (id: number) => must(categoryIds.get(id), 'the plan names a category of the document');
  for await (const slice of plan.assigned.slices<ExportedPlan['assigned'][number]>(PLAN_ROWS_A_STATEMENT)) {
    await pause();
    await db.run(
      `insert into plan_assigned (user_id, category_id, month, amount) values ${valuesSql('(?, ?, ?, ?)', slice.length)}`,
      slice.flatMap((row) => [userId, newId(row.categoryId), row.month, row.amount]),
    );
  }
  for await (const slice of plan.moves.slices<ExportedPlan['moves'][number]>(PLAN_ROWS_A_STATEMENT)) {
    await pause();
    await db.run(
      `insert into plan_move (user_id, month, from_category_id, to_category_id, amount, date, created_at) values ${valuesSql(
        '(?, ?, ?, ?, ?, ?, ?)',
        slice.length,
      )}`,
      slice.flatMap((move) => [
        userId,
        move.month,
        move.fromCategoryId === null ? null : newId(move.fromCategoryId),
        move.toCategoryId === null ? null : newId(move.toCategoryId),
        move.amount,
        move.date,
        move.createdAt ?? now,
      ]),
    );
  }
  for (const hold of plan.holds) {
    await pause();
    await db.run('insert into plan_hold (user_id, month, amount) values (?, ?, ?)', [userId, hold.month, hold.amount]);
  }
}
