import type { EntityManager } from '@mikro-orm/knex';
import { addDays } from '../../../shared/dates/calendar';
import { AppError } from '../../../shared/errors';
import {
  coveredKey,
  describeRecurrence,
  MAX_PAST_OCCURRENCES,
  MAX_SCHEDULES_PER_USER,
  occurrencesToStore,
  nextOpen,
  occurrencesBetween,
  projectBalances,
  suggestSchedules,
  type ComputedOccurrence,
  type CreateScheduleInput,
  type OccurrenceDto,
  type OccurrencePick,
  type OccurrenceRange,
  type ScheduleDto,
  type ScheduleEnd,
  type ScheduleSuggestionDto,
  type StoredOccurrence,
  type UpcomingDto,
  type UpcomingInput,
  type UpdateScheduleInput,
} from '../../../shared/schedules';
import { countedRowSql, runSql, selectRows, TRANSACTION_TABLE } from '../../db/sql';
import { findAccountByName, ownAccount } from '../accounts/accounts.service';
import { Account } from '../accounts/account.entity';
import { resolveCategoryId } from '../categories/categories.service';
import { Category } from '../categories/category.entity';
import { User } from '../users/user.entity';
import { ChangeRecorder, recorded } from '../history/recorder';
import type { HistoryKind } from '../../../shared/schemas/history';
import { Schedule } from './schedule.entity';
import {
  postOccurrence,
  rulesOf,
  runUserSchedules,
  selectSchedules,
  selectStored,
  lockUserSchedules,
  endOf,
  type ScheduleRow,
} from './schedule-runs';

/** How far ahead a schedule's next date is looked for, in growing steps (a daily rule expands fast). */
const NEXT_DATE_HORIZONS = [62, 400, 3660];

function nextOf(row: ScheduleRow, stored: readonly StoredOccurrence[], today: string): ComputedOccurrence | null {
  for (const horizon of NEXT_DATE_HORIZONS) {
    const next = nextOpen(rulesOf(row), stored, today, horizon);
    if (next) return next;
  }
  return null;
}

function toScheduleDto(row: ScheduleRow, stored: readonly StoredOccurrence[], today: string): ScheduleDto {
  return {
    id: row.id,
    name: row.name,
    account: row.account,
    accountId: row.account_id,
    description: row.description,
    amount: row.amount,
    currency: row.currency,
    amountTolerance: row.tolerance_basis_points / 100,
    category: row.category,
    recurrence: row.recurrence,
    recurrenceText: describeRecurrence(row.recurrence),
    weekendRule: row.weekend_rule,
    mode: row.mode,
    window: row.match_window,
    startDate: row.start_date,
    end: endOf(row),
    nextDate: nextOf(row, stored, today)?.date ?? null,
    missed: stored.filter((o) => o.status === 'missed').length,
  };
}

function toOccurrenceDto(row: ScheduleRow, occurrence: ComputedOccurrence): OccurrenceDto {
  return {
    id: occurrence.id,
    scheduleId: row.id,
    scheduleName: row.name,
    description: row.description,
    account: row.account,
    accountId: row.account_id,
    scheduledDate: occurrence.scheduledDate,
    date: occurrence.date,
    amount: occurrence.amount,
    currency: row.currency,
    status: occurrence.status,
    transactionId: occurrence.transactionId,
  };
}

async function ownSchedule(em: EntityManager, userId: number, id: number): Promise<ScheduleRow> {
  const [row] = await selectSchedules(em, userId, id);
  if (!row) throw new AppError('NOT_FOUND', `Schedule ${id} not found`);
  return row;
}

async function scheduleDto(em: EntityManager, userId: number, id: number, today: string): Promise<ScheduleDto> {
  const row = await ownSchedule(em, userId, id);
  return toScheduleDto(row, (await selectStored(em, userId, id)).get(id) ?? [], today);
}

export async function listSchedules(em: EntityManager, userId: number, today: string): Promise<ScheduleDto[]> {
  const rows = await selectSchedules(em, userId);
  const stored = await selectStored(em, userId);
  return rows.map((row) => toScheduleDto(row, stored.get(row.id) ?? [], today));
}

export async function getSchedule(em: EntityManager, userId: number, id: number, today: string): Promise<ScheduleDto> {
  return scheduleDto(em, userId, id, today);
}

function accountOf(em: EntityManager, userId: number, account: number | string): Promise<Account> {
  return typeof account === 'number' ? ownAccount(em, userId, account) : findAccountByName(em, userId, account);
}

function endColumns(end: ScheduleEnd): { endAfter: number | null; endUntil: string | null } {
  if (typeof end === 'object' && 'after' in end) return { endAfter: end.after, endUntil: null };
  if (typeof end === 'object') return { endAfter: null, endUntil: end.until };
  return { endAfter: null, endUntil: null };
}

/** Refuses a schedule whose past dates would bring more than MAX_PAST_OCCURRENCES occurrences due at once. */
async function refuseLongPast(tem: EntityManager, userId: number, id: number, today: string): Promise<void> {
  const row = await ownSchedule(tem, userId, id);
  const stored = (await selectStored(tem, userId, id)).get(id) ?? [];
  const due = occurrencesToStore(rulesOf(row), new Set(stored.map((o) => o.scheduledDate)), today).length;
  if (due > MAX_PAST_OCCURRENCES)
    throw new AppError(
      'BAD_REQUEST',
      `startDate: the schedule would bring ${due} past occurrences due at once (at most ${MAX_PAST_OCCURRENCES}); start it later`,
    );
}

/**
 * Runs a schedule action in one transaction recorded as one history entry. Besides what `work` names, a run of the
 * user's schedules may store, post, match or miss occurrences of any schedule: the occurrences still open before
 * it are touched, those stored during it are created, and so are the rows posted for either.
 */
async function recordedScheduleAction<T>(
  em: EntityManager,
  userId: number,
  kind: HistoryKind,
  work: (tem: EntityManager, recorder: ChangeRecorder) => Promise<T>,
  summary: (result: T) => string,
): Promise<T> {
  const action = async (tem: EntityManager, recorder: ChangeRecorder): Promise<T> => {
    // Taken first, so no other run of the user's schedules stores or changes occurrences between the reads below.
    await lockUserSchedules(tem, userId);
    const open = await selectRows<{ id: number }>(
      tem,
      `select id from schedule_occurrence where user_id = ?
        and (status in ('upcoming', 'due', 'missed') or (status = 'matched' and transaction_id is null))`,
      [userId],
    );
    await recorder.touch(
      'schedule_occurrence',
      open.map((row) => row.id),
    );
    const [last] = await selectRows<{ id: number | null }>(
      tem,
      'select max(id) as id from schedule_occurrence where user_id = ?',
      [userId],
    );
    const lastId = last?.id ?? 0;
    const result = await work(tem, recorder);
    const stored = await selectRows<{ id: number }>(
      tem,
      'select id from schedule_occurrence where user_id = ? and id > ?',
      [userId, lastId],
    );
    recorder.created(
      'schedule_occurrence',
      stored.map((row) => row.id),
    );
    // Posted during the action: an occurrence stored by it, or open before it, that now has its transaction.
    const posted = await selectRows<{ transaction_id: number }>(
      tem,
      `select transaction_id from schedule_occurrence where user_id = ? and id > ? and status = 'posted' and transaction_id is not null`,
      [userId, lastId],
    );
    for (let i = 0; i < open.length; i += 400) {
      const ids = open.slice(i, i + 400).map((row) => row.id);
      posted.push(
        ...(await selectRows<{ transaction_id: number }>(
          tem,
          `select transaction_id from schedule_occurrence where user_id = ? and status = 'posted' and transaction_id is not null
            and id in (${ids.map(() => '?').join(', ')})`,
          [userId, ...ids],
        )),
      );
    }
    recorder.created(
      'transaction',
      posted.map((row) => row.transaction_id),
    );
    return result;
  };
  return recorded(em, userId, kind, action, summary);
}

/** Creates a schedule and runs it at once: an occurrence due today (or earlier) posts or matches now. */
export async function createSchedule(
  em: EntityManager,
  userId: number,
  input: CreateScheduleInput,
  today: string,
): Promise<ScheduleDto> {
  return recordedScheduleAction(
    em,
    userId,
    'create',
    async (tem, recorder) => {
      const count = await tem.count(Schedule, { user: userId });
      if (count >= MAX_SCHEDULES_PER_USER)
        throw new AppError('CONFLICT', `You have ${count} schedules, the most one person can keep: delete one first`);
      const account = await accountOf(tem, userId, input.account);
      const categoryId = await resolveCategoryId(tem, userId, input.category);
      const schedule = tem.create(Schedule, {
        user: tem.getReference(User, userId),
        account,
        name: input.name,
        description: input.description,
        amount: input.amount,
        toleranceBasisPoints: Math.round(input.amountTolerance * 100),
        category: categoryId ? tem.getReference(Category, categoryId) : null,
        recurrence: input.recurrence,
        weekendRule: input.weekendRule,
        mode: input.mode,
        matchWindow: input.window,
        startDate: input.startDate,
        ...endColumns(input.end),
        createdAt: new Date().toISOString(),
      });
      await tem.flush();
      recorder.created('schedule', [schedule.id]);
      await refuseLongPast(tem, userId, schedule.id, today);
      await runUserSchedules(tem, userId, today);
      return scheduleDto(tem, userId, schedule.id, today);
    },
    (created) => `Created schedule ${created.name}`,
  );
}

/** Fields whose change remakes the occurrences still open (posted, matched and skipped ones stay). */
const TIMING_FIELDS = ['account', 'amount', 'recurrence', 'weekendRule', 'mode', 'window', 'startDate', 'end'] as const;

export async function updateSchedule(
  em: EntityManager,
  userId: number,
  id: number,
  input: UpdateScheduleInput,
  today: string,
): Promise<ScheduleDto> {
  return recordedScheduleAction(
    em,
    userId,
    'edit',
    async (tem, recorder) => {
      await recorder.touch('schedule', [id]);
      const schedule = await tem.findOne(Schedule, { id, user: userId });
      if (!schedule) throw new AppError('NOT_FOUND', `Schedule ${id} not found`);
      if (input.account !== undefined) schedule.account = await accountOf(tem, userId, input.account);
      if (input.category !== undefined) {
        const categoryId = await resolveCategoryId(tem, userId, input.category);
        schedule.category = categoryId ? tem.getReference(Category, categoryId) : null;
      }
      if (input.name !== undefined) schedule.name = input.name;
      if (input.description !== undefined) schedule.description = input.description;
      if (input.amount !== undefined) schedule.amount = input.amount;
      if (input.amountTolerance !== undefined) schedule.toleranceBasisPoints = Math.round(input.amountTolerance * 100);
      if (input.recurrence !== undefined) schedule.recurrence = input.recurrence;
      if (input.weekendRule !== undefined) schedule.weekendRule = input.weekendRule;
      if (input.mode !== undefined) schedule.mode = input.mode;
      if (input.window !== undefined) schedule.matchWindow = input.window;
      if (input.startDate !== undefined) schedule.startDate = input.startDate;
      if (input.end !== undefined) Object.assign(schedule, endColumns(input.end));
      if (schedule.endUntil && schedule.endUntil < schedule.startDate)
        throw new AppError('BAD_REQUEST', 'end: The end date must not be before the start date');
      await tem.flush();
      if (TIMING_FIELDS.some((field) => input[field] !== undefined)) {
        await lockUserSchedules(tem, userId);
        await runSql(
          tem,
          `delete from schedule_occurrence where schedule_id = ? and user_id = ? and status in ('due', 'missed')`,
          [id, userId],
        );
        await refuseLongPast(tem, userId, id, today);
      }
      await runUserSchedules(tem, userId, today);
      return scheduleDto(tem, userId, id, today);
    },
    (edited) => `Edited schedule ${edited.name}`,
  );
}

export async function deleteSchedule(em: EntityManager, userId: number, id: number): Promise<{ message: string }> {
  let name = '';
  return recordedScheduleAction(
    em,
    userId,
    'delete',
    async (tem, recorder) => {
      const schedule = await ownSchedule(tem, userId, id);
      name = schedule.name;
      await recorder.touch('schedule', [id]);
      // Its occurrences go with it (the rows they posted or matched stay).
      const occurrences = await selectRows<{ id: number }>(
        tem,
        'select id from schedule_occurrence where schedule_id = ? and user_id = ?',
        [id, userId],
      );
      await recorder.touch(
        'schedule_occurrence',
        occurrences.map((row) => row.id),
      );
      await runSql(tem, 'delete from schedule where id = ? and user_id = ?', [id, userId]);
      return { message: `Schedule '${schedule.name}' deleted (the transactions it posted stay)` };
    },
    () => `Deleted schedule ${name}`,
  );
}

/** The occurrence `pick` names (its own date), or the schedule's next open one. */
async function pickOccurrence(
  tem: EntityManager,
  userId: number,
  row: ScheduleRow,
  pick: OccurrencePick,
  today: string,
): Promise<ComputedOccurrence> {
  const stored = (await selectStored(tem, userId, row.id)).get(row.id) ?? [];
  if (!pick.date) {
    const next = nextOf(row, stored, today);
    if (!next) throw new AppError('CONFLICT', `Schedule '${row.name}' has no occurrence left`);
    return next;
  }
  const found = occurrencesBetween(rulesOf(row), stored, addDays(pick.date, -3), addDays(pick.date, 3), today).find(
    (o) => o.scheduledDate === pick.date,
  );
  if (!found) throw new AppError('NOT_FOUND', `Schedule '${row.name}' has no occurrence on ${pick.date}`);
  return found;
}

/** Stores an occurrence not stored yet (ahead of its time) as open, so it can be skipped or posted; answers its id. */
async function storedId(tem: EntityManager, userId: number, row: ScheduleRow, o: ComputedOccurrence): Promise<number> {
  if (o.id !== null) return o.id;
  await runSql(
    tem,
    `insert into schedule_occurrence (user_id, schedule_id, scheduled_date, due_date, amount, status, created_at)
     values (?, ?, ?, ?, ?, 'upcoming', ?) on conflict do nothing`,
    [userId, row.id, o.scheduledDate, o.date, o.amount, new Date().toISOString()],
  );
  const [stored] = await selectRows<{ id: number }>(
    tem,
    'select id from schedule_occurrence where schedule_id = ? and scheduled_date = ? and user_id = ?',
    [row.id, o.scheduledDate, userId],
  );
  if (!stored) throw new AppError('CONFLICT', 'The occurrence changed meanwhile; try again');
  return stored.id;
}

function refuseClosed(row: ScheduleRow, o: ComputedOccurrence): void {
  if (o.status === 'posted' || o.status === 'matched' || o.status === 'skipped')
    throw new AppError('CONFLICT', `The occurrence of '${row.name}' on ${o.scheduledDate} is already ${o.status}`);
}

async function occurrenceDto(tem: EntityManager, userId: number, row: ScheduleRow, id: number): Promise<OccurrenceDto> {
  const stored = (await selectStored(tem, userId, row.id)).get(row.id) ?? [];
  const o = stored.find((s) => s.id === id);
  if (!o) throw new AppError('NOT_FOUND', `Occurrence ${id} not found`);
  return toOccurrenceDto(row, { ...o });
}

/** Skips one occurrence (the next open one unless `pick` names its date): it is neither posted nor expected. */
export async function skipOccurrence(
  em: EntityManager,
  userId: number,
  id: number,
  pick: OccurrencePick,
  today: string,
): Promise<OccurrenceDto> {
  return recordedScheduleAction(
    em,
    userId,
    'edit',
    async (tem) => {
      const row = await ownSchedule(tem, userId, id);
      const o = await pickOccurrence(tem, userId, row, pick, today);
      refuseClosed(row, o);
      const occurrenceId = await storedId(tem, userId, row, o);
      await runSql(tem, `update schedule_occurrence set status = 'skipped' where id = ? and user_id = ?`, [
        occurrenceId,
        userId,
      ]);
      return occurrenceDto(tem, userId, row, occurrenceId);
    },
    (skipped) => `Skipped ${skipped.scheduleName} of ${skipped.scheduledDate}`,
  );
}

/** Posts one occurrence now (the next open one unless `pick` names its date): its transaction is dated today. */
export async function postOccurrenceNow(
  em: EntityManager,
  userId: number,
  id: number,
  pick: OccurrencePick,
  today: string,
): Promise<OccurrenceDto> {
  return recordedScheduleAction(
    em,
    userId,
    'create',
    async (tem) => {
      const row = await ownSchedule(tem, userId, id);
      const o = await pickOccurrence(tem, userId, row, pick, today);
      refuseClosed(row, o);
      const occurrenceId = await storedId(tem, userId, row, o);
      const posted = await postOccurrence(
        tem,
        userId,
        {
          id: occurrenceId,
          due_date: o.date,
          amount: o.amount,
          account_id: row.account_id,
          category_id: row.category_id,
          description: row.description,
        },
        today,
      );
      if (posted === null)
        throw new AppError('CONFLICT', `The occurrence of '${row.name}' on ${o.scheduledDate} was posted meanwhile`);
      return occurrenceDto(tem, userId, row, occurrenceId);
    },
    (posted) => `Posted ${posted.scheduleName} now`,
  );
}

/** Every schedule's occurrences falling from startDate through endDate (stored and ahead), by date. */
export async function listOccurrences(
  em: EntityManager,
  userId: number,
  range: OccurrenceRange,
  today: string,
): Promise<OccurrenceDto[]> {
  if (range.endDate > addDays(range.startDate, 800))
    throw new AppError('BAD_REQUEST', 'endDate: a range of occurrences spans at most 800 days');
  const rows = await selectSchedules(em, userId);
  const stored = await selectStored(em, userId);
  return rows
    .flatMap((row) =>
      occurrencesBetween(rulesOf(row), stored.get(row.id) ?? [], range.startDate, range.endDate, today).map((o) =>
        toOccurrenceDto(row, o),
      ),
    )
    .sort(byDate);
}

function byDate(a: OccurrenceDto, b: OccurrenceDto): number {
  return a.date < b.date ? -1 : a.date > b.date ? 1 : a.scheduleId - b.scheduleId;
}

/** Each account's balance at the end of today, and its counted rows dated after today up to `to`. */
async function balancesAround(em: EntityManager, userId: number, today: string, to: string) {
  // PostgreSQL answers a sum of bigints as numeric text.
  const accounts = await selectRows<{ id: number; opening: number; sofar: number | string | null }>(
    em,
    `select a.id, a.opening_balance as opening, (select sum(t.amount) from ${TRANSACTION_TABLE} t where t.account_id = a.id and t.post_date <= ? and ${countedRowSql('t')}) as sofar
       from account a where a.user_id = ?`,
    [today, userId],
  );
  const laterRows = await selectRows<{ account_id: number; post_date: string; total: number | string }>(
    em,
    `select t.account_id, t.post_date, sum(t.amount) as total from ${TRANSACTION_TABLE} t
      where t.user_id = ? and t.account_id is not null and t.post_date > ? and t.post_date <= ? and ${countedRowSql('t')}
      group by t.account_id, t.post_date`,
    [userId, today, to],
  );
  return {
    balancesToday: new Map(accounts.map((a) => [a.id, a.opening + Number(a.sofar ?? 0)])),
    laterRows: laterRows.map((r) => ({ accountId: r.account_id, date: r.post_date, amount: Number(r.total) })),
  };
}

/**
 * What is coming in the next `days` days (from today): every occurrence still upcoming or due,
 * with its account's projected balance after it. Occurrences are not transactions: nothing here is stored.
 */
export async function upcomingOccurrences(
  em: EntityManager,
  userId: number,
  input: UpcomingInput,
  today: string,
): Promise<UpcomingDto> {
  const endDate = addDays(today, input.days);
  const all = await listOccurrences(em, userId, { startDate: today, endDate }, today);
  const open = all.filter(
    (o) => (o.status === 'upcoming' || o.status === 'due') && (!input.accountId || o.accountId === input.accountId),
  );
  const { balancesToday, laterRows } = await balancesAround(em, userId, today, endDate);
  return { startDate: today, endDate, occurrences: projectBalances(open, balancesToday, laterRows) };
}

/** Schedules the user's last 15 months suggest (src/shared/schedules/suggest.ts), none an existing one covers. */
export async function scheduleSuggestions(
  em: EntityManager,
  userId: number,
  today: string,
): Promise<ScheduleSuggestionDto[]> {
  const rows = await selectRows<{
    account_id: number;
    account: string;
    currency: string;
    post_date: string;
    amount: number;
    description: string;
  }>(
    em,
    `select t.account_id, a.name as account, a.currency, t.post_date, t.amount, t.description from ${TRANSACTION_TABLE} t join account a on a.id = t.account_id
      where t.user_id = ? and t.parent_id is null and t.post_date >= ? and t.post_date <= ?`,
    [userId, addDays(today, -460), today],
  );
  const covered = new Set((await selectSchedules(em, userId)).map((s) => coveredKey(s.account_id, s.description)));
  return suggestSchedules(
    rows.map((r) => ({
      accountId: r.account_id,
      account: r.account,
      currency: r.currency,
      date: r.post_date,
      amount: r.amount,
      description: r.description,
    })),
    today,
    covered,
  );
}
