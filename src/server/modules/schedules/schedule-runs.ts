/**
 * What makes a user's schedules happen: occurrences that came due are stored (once: the
 * schedule and date are unique), `post` ones become transactions (once: an occurrence is claimed
 * by flipping its status before its transaction is written), `expect` ones are matched to the
 * account's rows, and those past their window unmatched become missed. It catches up every date
 * since the last run, however long the server was down. On PostgreSQL a per-user advisory lock
 * makes the runs of several processes take turns.
 */
import type { EntityManager } from '@mikro-orm/knex';
import { addDays } from '../../../shared/dates/calendar';
import {
  amountWithin,
  matchOccurrences,
  occurrencesToStore,
  openStatus,
  type OccurrenceStatus,
  type ScheduleEnd,
  type ScheduleMode,
  type ScheduleRules,
  type StoredOccurrence,
  type WeekendRule,
} from '../../../shared/schedules';
import { runSql, selectRows, sqlTx, TRANSACTION_TABLE, valuesSql, withUserScope } from '../../db/sql';
import type { ChangeRecorder } from '../history/recorder';

/** Any number for the first key of the schedules lock: with the user id it names one user's schedule runs. */
const SCHEDULE_LOCK_CLASS = 18_002;

export interface ScheduleRow {
  id: number;
  name: string;
  account_id: number;
  account: string;
  currency: string;
  description: string;
  amount: number;
  tolerance_basis_points: number;
  category_id: number | null;
  category: string | null;
  recurrence: string;
  weekend_rule: WeekendRule;
  mode: ScheduleMode;
  match_window: number;
  start_date: string;
  end_after: number | null;
  end_until: string | null;
}

interface OccurrenceRow {
  id: number;
  schedule_id: number;
  scheduled_date: string;
  due_date: string;
  amount: number;
  status: OccurrenceStatus;
  transaction_id: number | null;
}

export function endOf(row: Pick<ScheduleRow, 'end_after' | 'end_until'>): ScheduleEnd {
  if (row.end_after !== null) return { after: row.end_after };
  if (row.end_until !== null) return { until: row.end_until };
  return 'never';
}

export function rulesOf(row: ScheduleRow): ScheduleRules {
  return {
    recurrence: row.recurrence,
    startDate: row.start_date,
    end: endOf(row),
    weekendRule: row.weekend_rule,
    mode: row.mode,
    window: row.match_window,
    amount: row.amount,
  };
}

const SCHEDULE_COLUMNS = `s.id, s.name, s.account_id, a.name as account, a.currency, s.description, s.amount, s.tolerance_basis_points,
  s.category_id, c.name as category, s.recurrence, s.weekend_rule, s.mode, s.match_window, s.start_date, s.end_after, s.end_until`;

/** The user's schedules (or one of them), oldest first, with their account's and category's names. */
export function selectSchedules(em: EntityManager, userId: number, id?: number): Promise<ScheduleRow[]> {
  return selectRows<ScheduleRow>(
    em,
    `select ${SCHEDULE_COLUMNS} from schedule s join account a on a.id = s.account_id left join category c on c.id = s.category_id
      where s.user_id = ?${id === undefined ? '' : ' and s.id = ?'} order by s.id`,
    id === undefined ? [userId] : [userId, id],
  );
}

/** The stored occurrences of the user's schedules (or one), by schedule. */
export async function selectStored(
  em: EntityManager,
  userId: number,
  scheduleId?: number,
): Promise<Map<number, StoredOccurrence[]>> {
  const rows = await selectRows<OccurrenceRow>(
    em,
    `select id, schedule_id, scheduled_date, due_date, amount, status, transaction_id from schedule_occurrence
      where user_id = ?${scheduleId === undefined ? '' : ' and schedule_id = ?'} order by scheduled_date`,
    scheduleId === undefined ? [userId] : [userId, scheduleId],
  );
  const out = new Map<number, StoredOccurrence[]>();
  for (const row of rows) {
    let list = out.get(row.schedule_id);
    if (!list) out.set(row.schedule_id, (list = []));
    list.push({
      id: row.id,
      scheduledDate: row.scheduled_date,
      date: row.due_date,
      amount: row.amount,
      status: row.status,
      transactionId: row.transaction_id,
    });
  }
  return out;
}

/** The user's schedule runs take turns (until the transaction ends), in this process and any other. */
export async function lockUserSchedules(tem: EntityManager, userId: number): Promise<void> {
  await (await sqlTx(tem)).lock(SCHEDULE_LOCK_CLASS, userId);
}

/** Stores the occurrences that came due and have no row yet; a row another run stored first is left as it is. */
async function storeDue(tem: EntityManager, userId: number, schedules: readonly ScheduleRow[], today: string) {
  const stored = await selectStored(tem, userId);
  const now = new Date().toISOString();
  const rows: unknown[][] = [];
  for (const schedule of schedules) {
    const keys = new Set((stored.get(schedule.id) ?? []).map((row) => row.scheduledDate));
    for (const dates of occurrencesToStore(rulesOf(schedule), keys, today))
      rows.push([userId, schedule.id, dates.scheduledDate, dates.date, schedule.amount, 'due', now]);
  }
  const db = await sqlTx(tem);
  const chunk = db.maxRowsPerInsert(7);
  for (let i = 0; i < rows.length; i += chunk) {
    const part = rows.slice(i, i + chunk);
    await db.run(
      `insert into schedule_occurrence (user_id, schedule_id, scheduled_date, due_date, amount, status, created_at)
       values ${valuesSql('(?, ?, ?, ?, ?, ?, ?)', part.length)} on conflict do nothing`,
      part.flat(),
    );
  }
}

interface PostRow {
  id: number;
  due_date: string;
  amount: number;
  account_id: number;
  category_id: number | null;
  description: string;
}

/**
 * Writes the transaction of one occurrence, if this run is the one that claims it: the status
 * goes from `due` (or another open status) to `posted` first, and only the run whose update
 * changed the row writes. Answers the new transaction's id, or null when another run had it.
 */
export async function postOccurrence(
  tem: EntityManager,
  userId: number,
  row: PostRow,
  postDate: string,
): Promise<number | null> {
  const claimed = await runSql(
    tem,
    `update schedule_occurrence set status = 'posted' where id = ? and user_id = ? and status in ('upcoming', 'due', 'missed')`,
    [row.id, userId],
  );
  if (claimed !== 1) return null;
  const db = await sqlTx(tem);
  const transactionId = await db.insertId(
    `insert into ${TRANSACTION_TABLE} (user_id, account_id, category_id, category_source, post_date, description, amount, type, is_split, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, false, ?)`,
    [
      userId,
      row.account_id,
      row.category_id,
      row.category_id === null ? null : 'user',
      postDate,
      row.description,
      row.amount,
      row.amount < 0 ? 'debit' : 'credit',
      new Date().toISOString(),
    ],
  );
  await runSql(tem, 'update schedule_occurrence set transaction_id = ? where id = ? and user_id = ?', [
    transactionId,
    row.id,
    userId,
  ]);
  return transactionId;
}

/** Posts every due occurrence of the user's `post` schedules dated today or earlier, each on its own day. */
async function postDue(tem: EntityManager, userId: number, today: string): Promise<number> {
  const rows = await selectRows<PostRow>(
    tem,
    `select o.id, o.due_date, o.amount, s.account_id, s.category_id, s.description
       from schedule_occurrence o join schedule s on s.id = o.schedule_id
      where o.user_id = ? and o.status = 'due' and s.mode = 'post' and o.due_date <= ? order by o.due_date, o.id`,
    [userId, today],
  );
  let posted = 0;
  for (const row of rows) if ((await postOccurrence(tem, userId, row, row.due_date)) !== null) posted += 1;
  return posted;
}

interface PendingRow {
  id: number;
  schedule_id: number;
  account_id: number;
  due_date: string;
  amount: number;
  tolerance_basis_points: number;
  match_window: number;
  description: string;
}

/**
 * Matches the user's open `expect` occurrences (due, or missed: a row that comes late for its
 * date still pays it) to rows of their accounts that pay no occurrence yet. Answers how many matched.
 */
export async function matchPending(tem: EntityManager, userId: number): Promise<number> {
  await reopenOrphanedMatches(tem, userId);
  const pending = await selectRows<PendingRow>(
    tem,
    `select o.id, o.schedule_id, s.account_id, o.due_date, o.amount, s.tolerance_basis_points, s.match_window, s.description
       from schedule_occurrence o join schedule s on s.id = o.schedule_id
      where o.user_id = ? and o.status in ('due', 'missed') and s.mode = 'expect'`,
    [userId],
  );
  if (pending.length === 0) return 0;
  const accounts = [...new Set(pending.map((row) => row.account_id))];
  const from = pending.reduce((min, row) => {
    const day = addDays(row.due_date, -row.match_window);
    return day < min ? day : min;
  }, '9999-12-31');
  const to = pending.reduce((max, row) => {
    const day = addDays(row.due_date, row.match_window);
    return day > max ? day : max;
  }, '0000-01-01');
  const candidates = await selectRows<{
    id: number;
    account_id: number;
    post_date: string;
    amount: number;
    description: string;
  }>(
    tem,
    `select t.id, t.account_id, t.post_date, t.amount, t.description from ${TRANSACTION_TABLE} t
      where t.user_id = ? and t.account_id in (${accounts.map(() => '?').join(', ')}) and t.post_date >= ? and t.post_date <= ?
        and t.parent_id is null and not exists (select 1 from schedule_occurrence o where o.transaction_id = t.id)`,
    [userId, ...accounts, from, to],
  );
  const matches = matchOccurrences(
    pending.map((row) => ({
      id: row.id,
      scheduleId: row.schedule_id,
      accountId: row.account_id,
      date: row.due_date,
      amount: row.amount,
      toleranceBasisPoints: row.tolerance_basis_points,
      window: row.match_window,
      description: row.description,
    })),
    candidates.map((row) => ({
      id: row.id,
      accountId: row.account_id,
      date: row.post_date,
      amount: row.amount,
      description: row.description,
    })),
  );
  let matched = 0;
  for (const match of matches)
    matched += await runSql(
      tem,
      `update schedule_occurrence set status = 'matched', transaction_id = ? where id = ? and user_id = ? and status in ('due', 'missed')`,
      [match.transactionId, match.occurrenceId, userId],
    );
  return matched;
}

/**
 * After an edit of these rows: a matched row moved to another account or edited out of the tolerance no longer
 * pays its occurrence, which waits for a row again (its date is not checked: a late row may pay a missed
 * occurrence). Only an edit of the row releases it: a change of the schedule leaves matched occurrences as they are.
 */
export async function releaseUnfitMatches(
  tem: EntityManager,
  userId: number,
  transactionIds: readonly number[],
): Promise<void> {
  if (transactionIds.length === 0) return;
  const matched = await selectRows<{
    id: number;
    amount: number;
    tolerance_basis_points: number;
    row_amount: number;
    same_account: number | boolean;
  }>(
    tem,
    `select o.id, o.amount, s.tolerance_basis_points, t.amount as row_amount,
        case when t.account_id = s.account_id then 1 else 0 end as same_account
       from schedule_occurrence o join schedule s on s.id = o.schedule_id join ${TRANSACTION_TABLE} t on t.id = o.transaction_id
      where o.user_id = ? and o.status = 'matched' and s.mode = 'expect'
        and o.transaction_id in (${transactionIds.map(() => '?').join(', ')})`,
    [userId, ...transactionIds],
  );
  const unfit = matched.filter(
    (row) => !Number(row.same_account) || !amountWithin(row.row_amount, row.amount, row.tolerance_basis_points),
  );
  for (const row of unfit)
    await runSql(
      tem,
      `update schedule_occurrence set status = 'due', transaction_id = null where id = ? and user_id = ? and status = 'matched'`,
      [row.id, userId],
    );
}

/**
 * An expected occurrence whose matched row was deleted (the link set to null with it) is open again: it may match
 * another row, or the same one brought back from the trash, and otherwise becomes missed in its turn.
 */
async function reopenOrphanedMatches(tem: EntityManager, userId: number): Promise<void> {
  await runSql(
    tem,
    `update schedule_occurrence set status = 'due'
      where user_id = ? and status = 'matched' and transaction_id is null
        and schedule_id in (select id from schedule where user_id = ? and mode = 'expect')`,
    [userId, userId],
  );
}

/** Due `expect` occurrences past their window become missed. */
async function markMissed(tem: EntityManager, userId: number, today: string): Promise<void> {
  const due = await selectRows<{ id: number; due_date: string; match_window: number }>(
    tem,
    `select o.id, o.due_date, s.match_window from schedule_occurrence o join schedule s on s.id = o.schedule_id
      where o.user_id = ? and o.status = 'due' and s.mode = 'expect' and o.due_date < ?`,
    [userId, today],
  );
  const missed = due.filter((row) => openStatus('expect', row.match_window, row.due_date, today) === 'missed');
  for (const row of missed)
    await runSql(
      tem,
      `update schedule_occurrence set status = 'missed' where id = ? and user_id = ? and status = 'due'`,
      [row.id, userId],
    );
}

export interface RunResult {
  posted: number;
  matched: number;
}

/** One run over one user's schedules inside the caller's user-scoped transaction (see the module comment). */
export async function runUserSchedules(tem: EntityManager, userId: number, today: string): Promise<RunResult> {
  await lockUserSchedules(tem, userId);
  const schedules = await selectSchedules(tem, userId);
  if (schedules.length === 0) return { posted: 0, matched: 0 };
  await storeDue(tem, userId, schedules, today);
  // A matched row that was deleted since pays nothing: its occurrence waits for a row again.
  await runSql(
    tem,
    `update schedule_occurrence set status = 'due' where user_id = ? and status = 'matched' and transaction_id is null`,
    [userId],
  );
  const posted = await postDue(tem, userId, today);
  const matched = await matchPending(tem, userId);
  await markMissed(tem, userId, today);
  return { posted, matched };
}

/**
 * After rows were written outside a schedule run (an import, a new transaction, a delete, an undo): open expected
 * occurrences look for their row now instead of at the next hourly run. It matches the occurrences already stored;
 * given `today` (after a write that may have taken a matched row away), an occurrence left open past its window is
 * missed at once, as the hourly run would make it. A failure leaves the work to the next run; it never undoes the
 * write that came before.
 */
export async function matchSchedulesAfterWrite(em: EntityManager, userId: number, today?: string): Promise<void> {
  try {
    await withUserScope(em, userId, (sem) =>
      sem.transactional(async (tem) => {
        const [open] = await selectRows<{ n: number | string }>(
          tem,
          `select count(*) as n from schedule_occurrence
            where user_id = ? and (status in ('due', 'missed') or (status = 'matched' and transaction_id is null))`,
          [userId],
        );
        if (Number(open?.n ?? 0) === 0) return;
        await lockUserSchedules(tem, userId);
        await matchPending(tem, userId);
        if (today !== undefined) await markMissed(tem, userId, today);
      }),
    );
  } catch {
    // The next run (hourly, or the next write) matches them.
  }
}

/**
 * Inside an action recorded in the history (a row added by hand): open expected occurrences look for their row
 * now, and what they become is part of the action's entry, so its undo leaves them as they were and redo as after.
 */
export async function matchSchedulesRecorded(
  tem: EntityManager,
  userId: number,
  recorder: ChangeRecorder,
): Promise<void> {
  await lockUserSchedules(tem, userId);
  const open = await selectRows<{ id: number }>(
    tem,
    `select id from schedule_occurrence
      where user_id = ? and (status in ('due', 'missed') or (status = 'matched' and transaction_id is null))`,
    [userId],
  );
  if (open.length === 0) return;
  await recorder.touch(
    'schedule_occurrence',
    open.map((row) => row.id),
  );
  await matchPending(tem, userId);
}

/** Runs every user's schedules, each user in a transaction of their own; answers the totals. */
export async function runAllSchedules(
  em: EntityManager,
  today: string,
  onError: (userId: number, error: unknown) => void,
): Promise<RunResult> {
  const users = await selectRows<{ id: number }>(em, 'select id from "user" order by id');
  const total: RunResult = { posted: 0, matched: 0 };
  for (const { id } of users) {
    try {
      const result = await withUserScope(em.fork(), id, (sem) =>
        sem.transactional((tem) => runUserSchedules(tem, id, today)),
      );
      total.posted += result.posted;
      total.matched += result.matched;
    } catch (error) {
      onError(id, error);
    }
  }
  return total;
}
