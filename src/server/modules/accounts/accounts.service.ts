import type { EntityManager } from '@mikro-orm/knex';
import { AppError } from '../../../shared/errors';
import {
  defaultOnBudget,
  type AccountDto,
  type AccountType,
  type CreateAccountInput,
  type LastImport,
  type NetWorthInput,
  type UpdateAccountInput,
} from '../../../shared/schemas/accounts';
import { monthsEnding, netWorthByMonth, type NetWorthPoint } from '../../../shared/accounts/net-worth';
import { Transaction } from '../transactions/transaction.entity';
import { User } from '../users/user.entity';
import { Account } from './account.entity';
import { nameKey } from '../../../shared/names';
import { findOwned } from '../../db/find-owned';
import { countedRowSql, selectRows, TRANSACTION_TABLE } from '../../db/sql';
import { convertedNetWorth } from './net-worth-converted';

/** What an account's answer adds to its row: the sum of its counted rows and its latest upload. */
export interface AccountFigures {
  counted: number;
  lastImport: LastImport | null;
}

const NO_FIGURES: AccountFigures = { counted: 0, lastImport: null };

export function toAccountDto(account: Account, figures: AccountFigures = NO_FIGURES): AccountDto {
  return {
    id: account.id,
    name: account.name,
    type: account.type as AccountType,
    currency: account.currency,
    balance: account.openingBalance + figures.counted,
    openingBalance: account.openingBalance,
    openingDate: account.openingDate,
    applySuggestions: account.applySuggestions,
    onBudget: account.onBudget,
    lastImport: figures.lastImport,
  };
}

/** Each of the user's accounts' counted total and latest upload (only `accountId` when given). */
export async function accountFigures(
  em: EntityManager,
  userId: number,
  accountId?: number,
): Promise<Map<number, AccountFigures>> {
  const one = accountId === undefined ? '' : ' and t.account_id = ?';
  // PostgreSQL answers a sum of bigints as numeric text.
  const sums = await selectRows<{ account_id: number; total: number | string }>(
    em,
    `select t.account_id, sum(t.amount) as total from ${TRANSACTION_TABLE} t
      where t.user_id = ? and t.account_id is not null and ${countedRowSql('t')}${one} group by t.account_id`,
    accountId === undefined ? [userId] : [userId, accountId],
  );
  const batches = await selectRows<{ account_id: number; id: string; upload_date: string; file_name: string | null }>(
    em,
    `select b.account_id, b.id, b.upload_date, b.file_name from batch b
      where b.user_id = ? and b.account_id is not null${accountId === undefined ? '' : ' and b.account_id = ?'}
        and b.upload_date = (select max(l.upload_date) from batch l where l.user_id = b.user_id and l.account_id = b.account_id)`,
    accountId === undefined ? [userId] : [userId, accountId],
  );
  const figures = new Map<number, AccountFigures>();
  const of = (id: number): AccountFigures => {
    const known = figures.get(id);
    if (known) return known;
    const figure = { counted: 0, lastImport: null };
    figures.set(id, figure);
    return figure;
  };
  for (const row of sums) of(row.account_id).counted = Number(row.total);
  for (const row of batches) {
    const figure = of(row.account_id);
    if (figure.lastImport && figure.lastImport.batchId > row.id) continue;
    figure.lastImport = { batchId: row.id, uploadDate: row.upload_date, fileName: row.file_name };
  }
  return figures;
}

/** One account's answer, with its balance and latest upload read now. */
export async function accountDto(em: EntityManager, userId: number, account: Account): Promise<AccountDto> {
  const figures = await accountFigures(em, userId, account.id);
  return toAccountDto(account, figures.get(account.id));
}

export async function listAccounts(em: EntityManager, userId: number): Promise<AccountDto[]> {
  const rows = await em.find(Account, { user: userId }, { orderBy: { nameKey: 'asc', id: 'asc' } });
  const figures = await accountFigures(em, userId);
  return rows.map((row) => toAccountDto(row, figures.get(row.id)));
}

export async function ownAccount(em: EntityManager, userId: number, id: number): Promise<Account> {
  return findOwned(em, Account, userId, id);
}

/** The user's account by name (case-insensitive); a 404 naming it when there is none. */
export async function findAccountByName(em: EntityManager, userId: number, name: string): Promise<Account> {
  const account = await em.findOne(Account, { user: userId, nameKey: nameKey(name) });
  if (!account) throw new AppError('NOT_FOUND', `Account '${name.trim()}' not found`);
  return account;
}

async function refuseDuplicateName(em: EntityManager, userId: number, name: string, exceptId?: number): Promise<void> {
  const clash = await em.findOne(Account, { user: userId, nameKey: nameKey(name) });
  if (clash && clash.id !== exceptId) throw new AppError('CONFLICT', `An account named '${clash.name}' already exists`);
}

/** Today's date in UTC, `YYYY-MM-DD`, where the caller has no clock of the server's to ask. */
function utcToday(): string {
  return new Date().toISOString().slice(0, 10);
}

/** `today` is the opening date of an account created without one. */
export async function createAccount(
  em: EntityManager,
  userId: number,
  input: CreateAccountInput,
  today = utcToday(),
): Promise<AccountDto> {
  await refuseDuplicateName(em, userId, input.name);
  const currency = input.currency ?? (await em.findOneOrFail(User, { id: userId })).homeCurrency;
  // A new account has no transactions yet, so the balance an older client sends is its opening balance.
  const account = em.create(Account, {
    user: em.getReference(User, userId),
    currency,
    name: input.name.trim(),
    nameKey: nameKey(input.name),
    type: input.type,
    openingBalance: input.openingBalance ?? input.balance ?? 0,
    openingDate: input.openingDate ?? today,
    applySuggestions: input.applySuggestions,
    onBudget: input.onBudget ?? defaultOnBudget(input.type),
    createdAt: new Date().toISOString(),
  });
  await em.flush();
  return toAccountDto(account);
}

export async function updateAccount(
  em: EntityManager,
  userId: number,
  id: number,
  input: UpdateAccountInput,
): Promise<AccountDto> {
  const account = await ownAccount(em, userId, id);
  if (input.name !== undefined) {
    await refuseDuplicateName(em, userId, input.name, id);
    account.name = input.name.trim();
    account.nameKey = nameKey(input.name);
  }
  if (input.type !== undefined) account.type = input.type;
  if (input.currency !== undefined && input.currency !== account.currency) {
    await refuseCurrencyChange(em, userId, account, input);
    account.currency = input.currency;
  }
  if (input.openingBalance !== undefined) account.openingBalance = input.openingBalance;
  if (input.openingDate !== undefined) account.openingDate = input.openingDate;
  if (input.balance !== undefined) {
    // An older client's "balance now": the opening balance that gives it.
    const counted = (await accountFigures(em, userId, id)).get(id)?.counted ?? 0;
    account.openingBalance = input.balance - counted;
  }
  if (input.applySuggestions !== undefined) account.applySuggestions = input.applySuggestions;
  if (input.onBudget !== undefined) account.onBudget = input.onBudget;
  await em.flush();
  return accountDto(em, userId, account);
}

/**
 * An account's amounts are stored in its currency's minor unit, so its currency may change only while
 * nothing is stored in it: no transactions, and an opening balance that is zero or given anew in the same change.
 */
async function refuseCurrencyChange(
  em: EntityManager,
  userId: number,
  account: Account,
  input: UpdateAccountInput,
): Promise<void> {
  const used = await em.count(Transaction, { account: account.id, user: userId });
  if (used > 0) {
    throw new AppError(
      'CONFLICT',
      `Account '${account.name}' has ${used} transaction${used === 1 ? '' : 's'} in ${account.currency}; its currency cannot change. Open a new account in ${input.currency ?? ''} instead`,
      { transactionCount: used },
    );
  }
  if (account.openingBalance !== 0 && input.openingBalance === undefined && input.balance === undefined) {
    throw new AppError(
      'CONFLICT',
      `Account '${account.name}' has an opening balance in ${account.currency}; give its opening balance in ${input.currency ?? ''} in the same change`,
    );
  }
}

/** Refused with a 409 while transactions still use the account, so nothing is lost. */
export async function deleteAccount(em: EntityManager, userId: number, id: number): Promise<{ message: string }> {
  const account = await ownAccount(em, userId, id);
  const inUse = await em.count(Transaction, { account: id, user: userId });
  if (inUse > 0) {
    throw new AppError(
      'CONFLICT',
      `Account '${account.name}' still has ${inUse} transaction${inUse === 1 ? '' : 's'}; delete them (or their batches) first`,
      {
        transactionCount: inUse,
      },
    );
  }
  em.remove(account);
  await em.flush();
  return { message: `Account '${account.name}' deleted` };
}

/** The user's net worth at the end of each of the `months` months up to the one of `endDate` (today by default). */
export async function netWorth(
  em: EntityManager,
  userId: number,
  input: NetWorthInput,
  today = utcToday(),
): Promise<{ currency: string; points: NetWorthPoint[] }> {
  const months = monthsEnding(input.endDate ?? today, input.months);
  const home = (await em.findOneOrFail(User, { id: userId })).homeCurrency;
  const foreign = await em.count(Account, { user: userId, currency: { $ne: home } });
  if (foreign > 0)
    return { currency: home, points: await convertedNetWorth(em, userId, home, months, input.endDate ?? today) };
  const [opening] = await selectRows<{ total: number | string | null }>(
    em,
    'select sum(opening_balance) as total from account where user_id = ?',
    [userId],
  );
  const totals = await selectRows<{ month: string; total: number | string }>(
    em,
    `select substr(t.post_date, 1, 7) as month, sum(t.amount) as total from ${TRANSACTION_TABLE} t
      where t.user_id = ? and t.account_id is not null and t.post_date <= ? and ${countedRowSql('t')}
      group by substr(t.post_date, 1, 7)`,
    [userId, `${months.at(-1)}-31`],
  );
  const monthTotals = totals.map((row) => ({ month: row.month, total: Number(row.total) }));
  return { currency: home, points: netWorthByMonth(Number(opening?.total ?? 0), monthTotals, months) };
}
