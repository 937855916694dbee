import { EntitySchema } from '@mikro-orm/core';
import { centsType } from '../../db/cents.type';
import { Category } from '../categories/category.entity';
import { User } from '../users/user.entity';

/** What a person assigned to one expense category in one month (`YYYY-MM`); one row per category and month. */
export class PlanAssigned {
  id!: number;
  user!: User;
  category!: Category;
  month!: string;
  /** Integer cents. */
  amount!: number;
}

export const PlanAssignedSchema = new EntitySchema<PlanAssigned>({
  class: PlanAssigned,
  tableName: 'plan_assigned',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    user: { kind: 'm:1', entity: () => User, deleteRule: 'cascade', index: false },
    category: { kind: 'm:1', entity: () => Category, deleteRule: 'cascade', index: false },
    month: { type: 'string', length: 7 },
    amount: { type: centsType },
  },
  uniques: [{ name: 'plan_assigned_category_month_unique', properties: ['category', 'month'] }],
  // The plan reads a user's rows up to a month.
  indexes: [{ name: 'plan_assigned_user_month_index', properties: ['user', 'month'] }],
});

/**
 * One move of money in a month's plan, kept as its history: `amount` left `from` and reached `to`
 * (null on either side is To Assign). The assigned amounts already carry its effect.
 */
export class PlanMove {
  id!: number;
  user!: User;
  month!: string;
  fromCategory?: Category | null;
  toCategory?: Category | null;
  /** Integer cents, more than zero. */
  amount!: number;
  /** The day it was made, `YYYY-MM-DD`. */
  date!: string;
  createdAt!: string;
}

export const PlanMoveSchema = new EntitySchema<PlanMove>({
  class: PlanMove,
  tableName: 'plan_move',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    user: { kind: 'm:1', entity: () => User, deleteRule: 'cascade', index: false },
    month: { type: 'string', length: 7 },
    fromCategory: { kind: 'm:1', entity: () => Category, nullable: true, deleteRule: 'cascade', index: true },
    toCategory: { kind: 'm:1', entity: () => Category, nullable: true, deleteRule: 'cascade', index: true },
    amount: { type: centsType },
    date: { type: 'string', length: 10 },
    createdAt: { type: 'string', length: 32 },
  },
  indexes: [{ name: 'plan_move_user_month_index', properties: ['user', 'month'] }],
});

/** What a person held of To Assign in one month for the next; one row per user and month. */
export class PlanHold {
  id!: number;
  user!: User;
  month!: string;
  /** Integer cents, zero or more. */
  amount!: number;
}

export const PlanHoldSchema = new EntitySchema<PlanHold>({
  class: PlanHold,
  tableName: 'plan_hold',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    user: { kind: 'm:1', entity: () => User, deleteRule: 'cascade', index: false },
    month: { type: 'string', length: 7 },
    amount: { type: centsType },
  },
  uniques: [{ name: 'plan_hold_user_month_unique', properties: ['user', 'month'] }],
});

/**
 * The counted rows (not split parents) without a transfer link of one account and category (0: uncategorised) in
 * one month, summed. Derived from the transaction table and kept right by its triggers (the plan_month_sums
 * migrations; an import adds its rows in one statement, transaction-writes.ts), never written by the app. The plan
 * reads these instead of every row up to the month; linked rows are read live beside them.
 */
export class PlanMonthSum {
  id!: number;
  user!: User;
  accountId!: number;
  categoryKey!: number;
  month!: string;
  count!: number;
  /** Integer cents. */
  total!: number;
}

export const PlanMonthSumSchema = new EntitySchema<PlanMonthSum>({
  class: PlanMonthSum,
  tableName: 'plan_month_sum',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    user: { kind: 'm:1', entity: () => User, deleteRule: 'cascade', index: false },
    // Not a foreign key: an account's rows leave through the transaction table's triggers as it is deleted.
    accountId: { type: 'integer' },
    categoryKey: { type: 'integer' },
    month: { type: 'string', length: 7 },
    count: { type: 'integer', fieldName: 'n' },
    total: { type: centsType },
  },
  uniques: [{ name: 'plan_month_sum_key_unique', properties: ['user', 'accountId', 'categoryKey', 'month'] }],
});
