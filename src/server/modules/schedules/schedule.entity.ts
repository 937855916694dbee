import { EntitySchema } from '@mikro-orm/core';
import type { OccurrenceStatus, ScheduleMode, WeekendRule } from '../../../shared/schedules';
import { EntityBase, EntityBaseSchema } from '../../db/base.entity';
import { centsType } from '../../db/cents.type';
import { Account } from '../accounts/account.entity';
import { Category } from '../categories/category.entity';
import { Transaction } from '../transactions/transaction.entity';
import { User } from '../users/user.entity';

/** A scheduled transaction of one user (src/shared/schedules): what it is, when it recurs, how it is paid. */
export class Schedule extends EntityBase {
  user!: User;
  account!: Account;
  name!: string;
  description!: string;
  /** Integer cents; negative is money out. */
  amount!: number;
  /** How far a matched amount may differ, in basis points (1/100 of a percent). */
  toleranceBasisPoints!: number;
  category?: Category | null;
  /** RRULE text, canonical (src/shared/schedules/recurrence.ts). */
  recurrence!: string;
  weekendRule!: WeekendRule;
  mode!: ScheduleMode;
  /** Days either side of an occurrence in which a matching row may come. */
  matchWindow!: number;
  startDate!: string;
  /** End after this many occurrences (null: no count). */
  endAfter?: number | null;
  /** End on this day, inclusive (null: no date). */
  endUntil?: string | null;
}

export const ScheduleSchema = new EntitySchema<Schedule, EntityBase>({
  class: Schedule,
  extends: EntityBaseSchema,
  tableName: 'schedule',
  properties: {
    user: { kind: 'm:1', entity: () => User, deleteRule: 'cascade', index: false },
    account: { kind: 'm:1', entity: () => Account, deleteRule: 'cascade', index: true },
    name: { type: 'string', length: 255 },
    description: { type: 'text' },
    amount: { type: centsType },
    toleranceBasisPoints: { type: 'integer', default: 0 },
    category: { kind: 'm:1', entity: () => Category, nullable: true, deleteRule: 'set null', index: true },
    recurrence: { type: 'string', length: 500 },
    weekendRule: { type: 'string', length: 8 },
    mode: { type: 'string', length: 8 },
    matchWindow: { type: 'integer' },
    startDate: { type: 'string', length: 10 },
    endAfter: { type: 'integer', nullable: true },
    endUntil: { type: 'string', length: 10, nullable: true },
  },
  indexes: [{ name: 'schedule_user_id_index', properties: ['user'] }],
});

/**
 * One date a schedule falls on, stored once it comes due: what became of it (posted, matched,
 * missed, skipped, or due and still waiting) and the transaction it became. One row per schedule
 * and date (the rule's own date), so two processes can never post the same occurrence twice, and
 * one occurrence per transaction, so a row paid one schedule cannot pay another.
 */
export class ScheduleOccurrence {
  id!: number;
  user!: User;
  schedule!: Schedule;
  scheduledDate!: string;
  /** The day it falls on (after the weekend rule). */
  dueDate!: string;
  /** The expected amount when it came due (integer cents). */
  amount!: number;
  status!: OccurrenceStatus;
  transaction?: Transaction | null;
  createdAt!: string;
}

export const ScheduleOccurrenceSchema = new EntitySchema<ScheduleOccurrence>({
  class: ScheduleOccurrence,
  tableName: 'schedule_occurrence',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    user: { kind: 'm:1', entity: () => User, deleteRule: 'cascade', index: false },
    schedule: { kind: 'm:1', entity: () => Schedule, deleteRule: 'cascade', index: false },
    scheduledDate: { type: 'string', length: 10 },
    dueDate: { type: 'string', length: 10 },
    amount: { type: centsType },
    status: { type: 'string', length: 10 },
    transaction: { kind: 'm:1', entity: () => Transaction, nullable: true, deleteRule: 'set null', index: false },
    createdAt: { type: 'string', length: 32 },
  },
  uniques: [
    { name: 'schedule_occurrence_schedule_date_unique', properties: ['schedule', 'scheduledDate'] },
    { name: 'schedule_occurrence_transaction_unique', properties: ['transaction'] },
  ],
  indexes: [{ name: 'schedule_occurrence_user_status_index', properties: ['user', 'status', 'dueDate'] }],
});
