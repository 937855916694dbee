import type { EntityManager } from '@mikro-orm/knex';
import { addDays } from '../../../shared/dates/calendar';
import { reconcileFigures, withRunningBalance, type RegisterRow } from '../../../shared/register/register';
import type { ReconcileResult, RegisterRange, StatementInput } from '../../../shared/schemas/register';
import { countedRowSql, dialectOf, jsonArrayText, orderedAggregatesSql, TRANSACTION_TABLE } from '../../db/sql';
import { RawJson } from '../../http/raw-json';
import { TRANSACTION_COLUMNS, TRANSACTION_FROM } from '../transactions/transaction.dto';
import { selectRows, selectTransactions, transactionJsonSql } from '../transactions/transactions.query';
import { ownAccount, toAccountDto } from './accounts.service';
import type { Account } from './account.entity';

/** compareRegisterOrder (src/shared/register/register.ts) as SQL: newest first, split parents right above their parts. */
const REGISTER_ORDER =
  't.post_date desc, coalesce(t.parent_id, t.id) desc, case when t.parent_id is null then 0 else 1 end, t.id desc';
const EARLIEST = '0000-01-01';
const LATEST = '9999-12-31';

/**
 * Sum of the account's counted rows dated after `date`, read from the (account, date, amount,
 * split) index alone. The caller has checked that the account is the user's, and an account's
 * rows are always its owner's.
 */
async function countedTotalAfter(em: EntityManager, accountId: number, date: string): Promise<number> {
  const [row] = await selectRows<{ total: number | null }>(
    em,
    `select sum(t.amount) as total from ${TRANSACTION_TABLE} t where t.account_id = ? and t.post_date > ? and ${countedRowSql('t')}`,
    [accountId, date],
  );
  return row?.total ?? 0;
}

async function registerRows(
  em: EntityManager,
  userId: number,
  account: Account,
  startDate: string,
  endDate: string,
): Promise<RegisterRow[]> {
  const later = endDate >= LATEST ? 0 : await countedTotalAfter(em, account.id, endDate);
  const rows = await selectTransactions(
    em,
    userId,
    't.account_id = ? and t.post_date >= ? and t.post_date <= ?',
    [account.id, startDate, endDate],
    REGISTER_ORDER,
  );
  return withRunningBalance(rows, account.balance - later);
}

/**
 * registerRows as JSON text the database builds: each row's runningBalance is the balance after
 * the page's first row minus the counted rows listed above it (a window sum in register order),
 * which is withRunningBalance (src/shared/register/register.ts) in SQL.
 */
async function registerJson(
  em: EntityManager,
  userId: number,
  account: Account,
  startDate: string,
  endDate: string,
): Promise<string> {
  const later = endDate >= LATEST ? 0 : await countedTotalAfter(em, account.id, endDate);
  const inner = `select ${TRANSACTION_COLUMNS}, coalesce(t.parent_id, t.id) as family,
      coalesce(sum(case when ${countedRowSql('t')} then t.amount else 0 end) over (order by ${REGISTER_ORDER} rows between unbounded preceding and 1 preceding), 0) as newer
    from ${TRANSACTION_FROM} where t.user_id = ? and t.account_id = ? and t.post_date >= ? and t.post_date <= ?`;
  const row = transactionJsonSql(dialectOf(em), 's', [['runningBalance', 'cast((? - s.newer) as text)']]);
  const order = 's.post_date desc, s.family desc, case when s.parent_id is null then 0 else 1 end, s.id desc';
  const [result] = await selectRows<{ json: string | null }>(
    em,
    orderedAggregatesSql(dialectOf(em), [{ alias: 'json', item: row, separator: ',' }], `(${inner}) s`, order),
    [account.balance - later, userId, account.id, startDate, endDate],
  );
  return jsonArrayText(result?.json);
}

/** The register as JSON text the database builds (GET /api/accounts/:id/register): the same answer as accountRegister. */
export async function accountRegisterJson(
  em: EntityManager,
  userId: number,
  accountId: number,
  range: RegisterRange,
): Promise<RawJson> {
  const account = await ownAccount(em, userId, accountId);
  return new RawJson(await registerJson(em, userId, account, range.startDate ?? EARLIEST, range.endDate ?? LATEST));
}

/** The account's transactions between the dates (both optional), newest first, each with the balance after it. */
export async function accountRegister(
  em: EntityManager,
  userId: number,
  accountId: number,
  range: RegisterRange,
): Promise<RegisterRow[]> {
  const account = await ownAccount(em, userId, accountId);
  return registerRows(em, userId, account, range.startDate ?? EARLIEST, range.endDate ?? LATEST);
}

async function reconcileWith(
  em: EntityManager,
  userId: number,
  account: Account,
  statement: StatementInput,
): Promise<ReconcileResult> {
  const later = await countedTotalAfter(em, account.id, statement.statementDate);
  const transactionsAfter =
    statement.statementDate >= LATEST
      ? []
      : await registerRows(em, userId, account, addDays(statement.statementDate, 1), LATEST);
  return {
    account: toAccountDto(account),
    statementDate: statement.statementDate,
    statementBalance: statement.statementBalance,
    ...reconcileFigures(account.balance, later, statement.statementBalance),
    transactionsAfter,
  };
}

/** The register against a bank statement: the balance on its date, the difference, and the rows after it. */
export async function reconcileAccount(
  em: EntityManager,
  userId: number,
  accountId: number,
  statement: StatementInput,
): Promise<ReconcileResult> {
  return reconcileWith(em, userId, await ownAccount(em, userId, accountId), statement);
}

/**
 * Makes the register agree with the statement by recording the stated balance that does
 * (the statement balance plus the counted rows after its date), in one transaction.
 */
export async function adjustAccountBalance(
  em: EntityManager,
  userId: number,
  accountId: number,
  statement: StatementInput,
): Promise<ReconcileResult> {
  return em.transactional(async (tem) => {
    const account = await ownAccount(tem, userId, accountId);
    const later = await countedTotalAfter(tem, account.id, statement.statementDate);
    account.balance = reconcileFigures(account.balance, later, statement.statementBalance).adjustedBalance;
    await tem.flush();
    return reconcileWith(tem, userId, account, statement);
  });
}
