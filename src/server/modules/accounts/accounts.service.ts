import type { EntityManager } from '@mikro-orm/knex';
import { AppError } from '../../../shared/errors';
import {
  defaultOnBudget,
  type AccountDto,
  type AccountType,
  type CreateAccountInput,
  type UpdateAccountInput,
} from '../../../shared/schemas/accounts';
import { Transaction } from '../transactions/transaction.entity';
import { User } from '../users/user.entity';
import { Account } from './account.entity';
import { nameKey } from '../../../shared/names';
import { findOwned } from '../../db/find-owned';

export function toAccountDto(account: Account): AccountDto {
  return {
    id: account.id,
    name: account.name,
    type: account.type as AccountType,
    balance: account.balance,
    applySuggestions: account.applySuggestions,
    onBudget: account.onBudget,
  };
}

export async function listAccounts(em: EntityManager, userId: number): Promise<AccountDto[]> {
  const rows = await em.find(Account, { user: userId }, { orderBy: { nameKey: 'asc', id: 'asc' } });
  return rows.map(toAccountDto);
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

export async function createAccount(em: EntityManager, userId: number, input: CreateAccountInput): Promise<AccountDto> {
  await refuseDuplicateName(em, userId, input.name);
  const account = em.create(Account, {
    user: em.getReference(User, userId),
    name: input.name.trim(),
    nameKey: nameKey(input.name),
    type: input.type,
    balance: input.balance,
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
  if (input.balance !== undefined) account.balance = input.balance;
  if (input.applySuggestions !== undefined) account.applySuggestions = input.applySuggestions;
  if (input.onBudget !== undefined) account.onBudget = input.onBudget;
  await em.flush();
  return toAccountDto(account);
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
