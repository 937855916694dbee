import type { EntityManager } from '@mikro-orm/knex';
import { addDays } from '../../../shared/dates/calendar';
import { reconcileFigures, type RegisterRow } from '../../../shared/register/register';
import type { ListPage, ReconcileResult, RegisterRange, StatementInput } from '../../../shared/schemas/register';
import { readsOf, type JsonPage, type Page, type RegisterSelection } from '../../db/transaction-reads';
import { accountFigures, ownAccount, toAccountDto } from './accounts.service';
import type { Account } from './account.entity';
import { AppError } from '../../../shared/errors';
import { formatCents, minorUnitsOf } from '../../../shared/money';
import { runSql, selectRows, TRANSACTION_TABLE } from '../../db/sql';
import { ChangeRecorder } from '../history/recorder';
import { Transaction } from '../transactions/transaction.entity';
import { User } from '../users/user.entity';

const EARLIEST = '0000-01-01';
const LATEST = '9999-12-31';

/** The account's balance: its opening balance plus its counted rows. */
async function balanceOf(em: EntityManager, userId: number, account: Account): Promise<number> {
  const figures = await accountFigures(em, userId, account.id);
  return account.openingBalance + (figures.get(account.id)?.counted ?? 0);
}

function registerOf(account: Account, balance: number, range: RegisterRange): RegisterSelection {
  return {
    accountId: account.id,
    balance,
    startDate: range.startDate ?? EARLIEST,
    endDate: range.endDate ?? LATEST,
  };
}

/**
 * The account's transactions between the dates (both optional), newest first, each with the
 * balance after it; one page with limit and offset, refused (422) over the answer cap without them.
 */
export async function accountRegister(
  em: EntityManager,
  userId: number,
  accountId: number,
  range: RegisterRange & ListPage,
): Promise<Page<RegisterRow>> {
  const account = await ownAccount(em, userId, accountId);
  return readsOf(em).register(userId, registerOf(account, await balanceOf(em, userId, account), range), range);
}

/** The same register as the JSON the database writes (GET /api/accounts/:id/register). */
export async function accountRegisterJson(
  em: EntityManager,
  userId: number,
  accountId: number,
  range: RegisterRange & ListPage,
): Promise<JsonPage> {
  const account = await ownAccount(em, userId, accountId);
  return readsOf(em).registerJson(userId, registerOf(account, await balanceOf(em, userId, account), range), range);
}

/** A reconciliation, and how many rows are dated after the statement (all of them, however many it lists). */
export interface Reconciliation {
  result: ReconcileResult;
  total: number;
}

async function reconcileWith(
  em: EntityManager,
  userId: number,
  account: Account,
  statement: StatementInput,
  page: ListPage,
): Promise<Reconciliation> {
  const later = await readsOf(em).countedTotalAfter(account.id, statement.statementDate);
  const figures = (await accountFigures(em, userId, account.id)).get(account.id);
  const balance = account.openingBalance + (figures?.counted ?? 0);
  const after =
    statement.statementDate >= LATEST
      ? { rows: [], total: 0 }
      : await readsOf(em).register(
          userId,
          registerOf(account, balance, { startDate: addDays(statement.statementDate, 1) }),
          { ...page, narrow: 'choose a later statement date or page with limit and offset' },
        );
  const result = {
    account: toAccountDto(account, figures),
    statementDate: statement.statementDate,
    statementBalance: statement.statementBalance,
    ...reconcileFigures(balance, later, statement.statementBalance),
    transactionsAfter: after.rows,
  };
  return { result, total: after.total };
}

/** The register against a bank statement: the balance on its date, the difference, and the rows after it. */
export async function reconcileAccount(
  em: EntityManager,
  userId: number,
  accountId: number,
  statement: StatementInput,
  page: ListPage = {},
): Promise<Reconciliation> {
  return reconcileWith(em, userId, await ownAccount(em, userId, accountId), statement, page);
}

/** What the description of an adjustment reads. */
export const ADJUSTMENT_DESCRIPTION = 'Reconciliation adjustment';

/**
 * Reconciles the account with a statement, in one transaction: a difference is refused (409,
 * naming it) unless `createAdjustment` asks for an adjustment transaction of that amount on the
 * statement's date; then every cleared row up to that date becomes reconciled.
 */
export async function adjustAccountBalance(
  em: EntityManager,
  userId: number,
  accountId: number,
  statement: StatementInput & { createAdjustment?: boolean },
  page: ListPage = {},
): Promise<Reconciliation & { reconciledRows: number }> {
  return em.transactional(async (tem) => {
    const account = await ownAccount(tem, userId, accountId);
    const later = await readsOf(tem).countedTotalAfter(account.id, statement.statementDate);
    const balance = await balanceOf(tem, userId, account);
    const { difference } = reconcileFigures(balance, later, statement.statementBalance);
    if (difference !== 0 && !statement.createAdjustment)
      throw new AppError(
        'CONFLICT',
        `The register differs from the statement by ${formatCents(difference, { digits: minorUnitsOf(account.currency) })}: send createAdjustment: true to record an adjustment transaction`,
        { difference },
      );
    // A reconcile changes rows like an edit does: recorded, so that undo puts them back as they were.
    const recorder = new ChangeRecorder(tem, userId);
    const cleared = await selectRows<{ id: number }>(
      tem,
      `select id from ${TRANSACTION_TABLE} where user_id = ? and account_id = ? and cleared = 'cleared' and post_date <= ?`,
      [userId, account.id, statement.statementDate],
    );
    await recorder.touch(
      'transaction',
      cleared.map((row) => row.id),
    );
    if (difference !== 0) {
      const adjustment = tem.create(Transaction, {
        user: tem.getReference(User, userId),
        account,
        postDate: statement.statementDate,
        description: ADJUSTMENT_DESCRIPTION,
        amount: difference,
        type: difference > 0 ? 'credit' : 'debit',
        isSplit: false,
        cleared: 'cleared',
        createdAt: new Date().toISOString(),
      });
      await tem.flush();
      recorder.created('transaction', [adjustment.id]);
    }
    const reconciledRows = await runSql(
      tem,
      `update ${TRANSACTION_TABLE} set cleared = 'reconciled' where user_id = ? and account_id = ? and cleared = 'cleared' and post_date <= ?`,
      [userId, account.id, statement.statementDate],
    );
    await recorder.finish('edit', `Reconciled ${account.name} with its statement of ${statement.statementDate}`);
    return { ...(await reconcileWith(tem, userId, account, statement, page)), reconciledRows };
  });
}
