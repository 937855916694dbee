import type { EntityManager } from '@mikro-orm/knex';
import { AppError } from '../../../shared/errors';
import { minorUnitsOf } from '../../../shared/money';
import { validateSplit } from '../../../shared/splits';
import type {
  BulkUpdateInput,
  CreateTransactionInput,
  SplitDetails,
  SearchTotalDto,
  SplitInput,
  TransactionDto,
  TransactionFilters,
  UpdateTransactionInput,
} from '../../../shared/schemas/transactions';
import { Account } from '../accounts/account.entity';
import { findAccountByName } from '../accounts/accounts.service';
import { resolveCategoryId } from '../categories/categories.service';
import { Category } from '../categories/category.entity';
import { User } from '../users/user.entity';
import { Transaction } from './transaction.entity';
import { findOwned } from '../../db/find-owned';
import { clearEmptySplits } from '../../db/transaction-writes';
import { readsOf, type JsonPage } from '../../db/transaction-reads';
import { matchSchedulesAfterWrite, matchSchedulesRecorded, releaseUnfitMatches } from '../schedules/schedule-runs';
import { ChangeRecorder, withSplitFamilies } from '../history/recorder';
import { readImages } from '../../db/row-images';
import { counterpartsOf, followAmount, refuseBrokenLinks, unlinkRows } from '../transfers/transfer-links';

/** The search (newest first): one page with limit and offset; without them, refused over the answer cap (422). */
export async function listTransactions(
  em: EntityManager,
  userId: number,
  filters: TransactionFilters,
): Promise<TransactionDto[]> {
  return (await readsOf(em).page(userId, filters, { limit: filters.limit, offset: filters.offset })).rows;
}

/** The search's net in the home currency (rows of other currencies converted at their own date's rate). */
export async function searchTotal(
  em: EntityManager,
  userId: number,
  filters: TransactionFilters,
): Promise<SearchTotalDto> {
  const read = await readsOf(em).searchTotal(userId, filters);
  const currency = (await em.findOneOrFail(User, { id: userId })).homeCurrency;
  return {
    net: read.net,
    currency,
    converted: read.converted,
    count: read.count,
    noRate: read.missing,
    transfersLeftOut: read.transfers,
  };
}

/** The same search as the JSON the database writes, with the count of all matching rows. */
export function searchTransactionsJson(
  em: EntityManager,
  userId: number,
  filters: TransactionFilters,
): Promise<JsonPage> {
  return readsOf(em).pageJson(userId, filters, { limit: filters.limit, offset: filters.offset });
}

/** The user's transactions with these ids (any order), newest first; ids that are not the user's are left out. */
async function transactionsByIds(em: EntityManager, userId: number, ids: readonly number[]): Promise<TransactionDto[]> {
  const out: TransactionDto[] = [];
  // A few hundred parameters a statement, well inside both databases' limits.
  for (let i = 0; i < ids.length; i += 500)
    out.push(...(await readsOf(em).page(userId, { ids: ids.slice(i, i + 500) })).rows);
  return out;
}

async function ownTransaction(em: EntityManager, userId: number, id: number): Promise<Transaction> {
  return findOwned(em, Transaction, userId, id);
}

export async function getTransaction(em: EntityManager, userId: number, id: number): Promise<TransactionDto> {
  const [dto] = await transactionsByIds(em, userId, [id]);
  if (!dto) throw new AppError('NOT_FOUND', `Transaction ${id} not found`);
  return dto;
}

function defaultType(amount: number): 'debit' | 'credit' {
  return amount < 0 ? 'debit' : 'credit';
}

export async function createTransaction(
  em: EntityManager,
  userId: number,
  input: CreateTransactionInput,
): Promise<TransactionDto> {
  return em.transactional(async (tem) => {
    const account = input.account ? await findAccountByName(tem, userId, input.account) : null;
    const categoryId = await resolveCategoryId(tem, userId, input.category);
    const tx = tem.create(Transaction, {
      user: tem.getReference(User, userId),
      account,
      category: categoryId ? tem.getReference(Category, categoryId) : null,
      categorySource: categoryId ? 'user' : null,
      postDate: input.postDate,
      description: input.description,
      amount: input.amount,
      originalAmount: input.originalAmount ?? null,
      originalCurrency: input.originalCurrency ?? null,
      type: input.type ?? defaultType(input.amount),
      isSplit: false,
      splitNote: input.splitNote ?? null,
      createdAt: new Date().toISOString(),
    });
    await tem.flush();
    const recorder = new ChangeRecorder(tem, userId);
    recorder.created('transaction', [tx.id]);
    if (tx.account) await matchSchedulesRecorded(tem, userId, recorder);
    await recorder.finish('create', `Added “${tx.description}”`);
    // Read back inside the transaction: a failure answering leaves nothing saved.
    return getTransaction(tem, userId, tx.id);
  });
}

/** The parent and children of a split family a transaction belongs to, if any. */
async function splitFamily(em: EntityManager, userId: number, tx: Transaction): Promise<Transaction[]> {
  const parentId = tx.parent ? tx.parent.id : tx.isSplit ? tx.id : null;
  if (parentId === null) return [];
  return em.find(Transaction, { user: userId, $or: [{ id: parentId }, { parent: parentId }] });
}

/**
 * Edits one transaction. A split family keeps one date, account and type, so changes
 * to those apply to the parent and all its parts; amounts of split rows are refused
 * (edit the split instead), so the parts always sum to the parent. A transfer's other side
 * follows an amount change (opposite again) and keeps its own date; an account change that
 * would leave both sides in one account is refused.
 */
export async function updateTransaction(
  em: EntityManager,
  userId: number,
  id: number,
  input: UpdateTransactionInput,
  options: { confirmReconciled?: boolean } = {},
): Promise<TransactionDto> {
  return em.transactional(async (tem) => {
    const tx = await ownTransaction(tem, userId, id);
    refuseUnconfirmedReconciledEdit(tx, input, options.confirmReconciled === true);
    const family = await splitFamily(tem, userId, tx);
    const recorder = new ChangeRecorder(tem, userId);
    await recorder.touchTransactions([id, ...family.map((row) => row.id)]);
    if (input.amount !== undefined && input.amount !== tx.amount && family.length > 0) {
      throw new AppError(
        'CONFLICT',
        'The amount of a split transaction cannot be changed here; edit the split so its parts still sum to the total',
      );
    }
    const shared = family.length > 0 ? family : [tx];
    if (input.account !== undefined) {
      const account = input.account === null ? null : await findAccountByName(tem, userId, input.account);
      if (account)
        await refuseOtherCurrency(
          tem,
          userId,
          shared.map((row) => row.id),
          account,
        );
      for (const row of shared) row.account = account;
    }
    if (input.postDate !== undefined) for (const row of shared) row.postDate = input.postDate;
    if (input.type !== undefined) for (const row of shared) row.type = input.type;
    if (input.description !== undefined) tx.description = input.description;
    const amountChanged = input.amount !== undefined && input.amount !== tx.amount;
    if (input.amount !== undefined) tx.amount = input.amount;
    if (input.originalAmount !== undefined) tx.originalAmount = input.originalAmount;
    if (input.originalCurrency !== undefined) tx.originalCurrency = input.originalCurrency;
    if (input.splitNote !== undefined) tx.splitNote = input.splitNote;
    if (input.memo !== undefined) tx.memo = input.memo;
    if (input.cleared !== undefined) tx.cleared = input.cleared;
    if (input.category !== undefined) {
      const categoryId = await resolveCategoryId(tem, userId, input.category);
      tx.category = categoryId ? tem.getReference(Category, categoryId) : null;
      // A person set it (or accepted a suggestion by setting it again).
      tx.categorySource = categoryId ? 'user' : null;
    }
    await tem.flush();
    if (tx.transfer) {
      if (amountChanged) await followAmount(tem, userId, tx.id, tx.amount);
      if (input.account !== undefined) await refuseBrokenLinks(tem, userId, [tx.id]);
    }
    if (amountChanged || input.account !== undefined)
      await releaseUnfitMatches(
        tem,
        userId,
        shared.map((row) => row.id),
      );
    await recorder.finish('edit', `Edited “${tx.description}”`);
    return getTransaction(tem, userId, id);
  });
}

/**
 * A reconciled row agreed with a statement: moving its amount or date would undo that, so it
 * takes an explicit confirmation (409 without it, nothing changed).
 */
function refuseUnconfirmedReconciledEdit(tx: Transaction, input: UpdateTransactionInput, confirmed: boolean): void {
  if (confirmed || tx.cleared !== 'reconciled') return;
  const moved: string[] = [];
  if (input.amount !== undefined && input.amount !== tx.amount) moved.push('amount');
  if (input.postDate !== undefined && input.postDate !== tx.postDate) moved.push('date');
  if (moved.length === 0) return;
  throw new AppError(
    'CONFLICT',
    `“${tx.description}” is reconciled with a statement; changing its ${moved.join(' and ')} needs confirmReconciled`,
    { reason: 'RECONCILED' },
  );
}

/** How a delete treats the other side of a linked row. */
export interface DeleteOptions {
  /** Delete the other side too; otherwise it stays, unlinked. */
  withCounterpart?: boolean;
  /** The server's date: an expected occurrence a deleted row paid, left open past its window, is missed at once. */
  today?: string;
}

/**
 * Deletes transactions. Deleting a split parent deletes its parts; deleting a part
 * removes the whole split (all parts) and leaves the parent whole again, so a split
 * never stops summing to its parent. A transfer's other side is kept, unlinked, unless
 * `withCounterpart`.
 */
export async function deleteTransactions(
  em: EntityManager,
  userId: number,
  ids: readonly number[],
  options: DeleteOptions = {},
): Promise<{ deleted: number; counterparts: number }> {
  const asked = [...new Set(ids)];
  const result = await em.transactional(async (tem) => {
    const found = await tem.find(Transaction, { id: { $in: asked }, user: userId }, { fields: ['id'] });
    if (found.length !== asked.length) {
      const ownIds = new Set(found.map((row) => row.id));
      const missing = asked.filter((id) => !ownIds.has(id));
      throw new AppError('NOT_FOUND', `Transaction${missing.length === 1 ? '' : 's'} ${missing.join(', ')} not found`);
    }
    const askedIds = new Set(asked);
    const others = new Set([...(await counterpartsOf(tem, userId, asked)).values()].filter((id) => !askedIds.has(id)));
    const unique = options.withCounterpart ? [...asked, ...others] : asked;
    const recorder = new ChangeRecorder(tem, userId);
    await recorder.touchDeleteCascades(await recorder.touchTransactions([...asked, ...others]));
    await unlinkRows(tem, userId, unique);
    const counterparts = options.withCounterpart ? others.size : 0;
    const result = await deleteRows(tem, userId, unique);
    await recorder.finish('delete', `Deleted ${unique.length} transaction${unique.length === 1 ? '' : 's'}`);
    return { ...result, counterparts };
  });
  // An expected occurrence the deleted rows had matched looks for its row again.
  await matchSchedulesAfterWrite(em, userId, options.today);
  return result;
}

/** Deletes the rows (all the user's), keeping split families whole; answers how many rows went. */
async function deleteRows(tem: EntityManager, userId: number, unique: readonly number[]): Promise<{ deleted: number }> {
  const rows = await tem.find(Transaction, { id: { $in: [...unique] }, user: userId });
  const parentsOfParts = new Set<number>();
  const removed = new Set<number>();
  for (const row of rows) {
    if (row.parent) parentsOfParts.add(row.parent.id);
    else removed.add(row.id);
  }
  const deletedParts = new Set<number>();
  const unsplit = [...parentsOfParts].filter((parentId) => !removed.has(parentId));
  if (unsplit.length > 0) {
    const parts = await tem.find(Transaction, { user: userId, parent: { $in: unsplit } });
    for (const part of parts) deletedParts.add(part.id);
    await tem.nativeDelete(Transaction, { user: userId, parent: { $in: unsplit } });
    await tem.nativeUpdate(Transaction, { user: userId, id: { $in: unsplit } }, { isSplit: false });
  }
  if (removed.size > 0) {
    const children = await tem.count(Transaction, { user: userId, parent: { $in: [...removed] } });
    await tem.nativeDelete(Transaction, { user: userId, parent: { $in: [...removed] } });
    await tem.nativeDelete(Transaction, { user: userId, id: { $in: [...removed] } });
    return { deleted: removed.size + children + deletedParts.size };
  }
  return { deleted: deletedParts.size };
}

export async function deleteTransaction(
  em: EntityManager,
  userId: number,
  id: number,
  options: DeleteOptions = {},
): Promise<{ message: string }> {
  const { counterparts } = await deleteTransactions(em, userId, [id], options);
  return {
    message: counterparts > 0 ? 'Transaction deleted with the other side of its transfer' : 'Transaction deleted',
  };
}

/**
 * Amounts are stored in their account's minor unit, so a transaction moves only between accounts of
 * one currency (or to or from no account): 100 cents in a euro account are not 100 yen.
 */
async function refuseOtherCurrency(
  em: EntityManager,
  userId: number,
  ids: readonly number[],
  target: Account,
): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    const other = await em.findOne(
      Transaction,
      { user: userId, id: { $in: ids.slice(i, i + 500) }, account: { currency: { $ne: target.currency } } },
      { populate: ['account'] },
    );
    if (other?.account) {
      throw new AppError(
        'CONFLICT',
        `Account '${target.name}' is in ${target.currency}, but transaction ${other.id} is in ${other.account.currency} (account '${other.account.name}'); a transaction moves only between accounts of one currency`,
      );
    }
  }
}

/** All or nothing: every id must be the user's, the account must exist. Answers the updated rows. */
export async function bulkUpdateTransactions(
  em: EntityManager,
  userId: number,
  input: BulkUpdateInput,
): Promise<TransactionDto[]> {
  const ids = [...new Set(input.transactionIds)];
  return em.transactional(async (tem) => {
    // The rows whole, as the history keeps them: this one read is also their before images.
    const rows = await readImages(tem, userId, 'transaction', ids);
    if (rows.size !== ids.length) {
      const missing = ids.filter((id) => !rows.has(String(id)));
      throw new AppError('NOT_FOUND', `Transaction${missing.length === 1 ? '' : 's'} ${missing.join(', ')} not found`);
    }
    const { category, type, account: accountName } = input.updates;
    const account = accountName ? await findAccountByName(tem, userId, accountName) : undefined;
    const categoryId = category !== undefined ? await resolveCategoryId(tem, userId, category) : undefined;
    // Type and account are shared by a split family, so they follow to parents and parts.
    const familyIds = new Set<number>();
    if (type !== undefined || account !== undefined) {
      const parentIds = new Set<number>();
      for (const row of rows.values()) {
        if (row.parent_id !== null && row.parent_id !== undefined) parentIds.add(Number(row.parent_id));
        else if (row.is_split) parentIds.add(Number(row.id));
      }
      if (parentIds.size > 0) {
        const family = await tem.find(Transaction, {
          user: userId,
          $or: [{ id: { $in: [...parentIds] } }, { parent: { $in: [...parentIds] } }],
        });
        for (const row of family) familyIds.add(row.id);
      }
    }
    const shared = [...new Set([...ids, ...familyIds])];
    if (account) await refuseOtherCurrency(tem, userId, shared, account);
    const recorder = new ChangeRecorder(tem, userId);
    recorder.readBefore('transaction', rows);
    await recorder.touchTransactions(shared);
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      if (categoryId !== undefined) {
        const categorySource = categoryId ? 'user' : null;
        await tem.nativeUpdate(
          Transaction,
          { user: userId, id: { $in: chunk } },
          { category: categoryId, categorySource },
        );
        recorder.updated('transaction', chunk, { category_id: categoryId, category_source: categorySource });
      }
    }
    for (let i = 0; i < shared.length; i += 500) {
      const chunk = shared.slice(i, i + 500);
      const changes: Partial<Pick<Transaction, 'type'>> & { account?: number } = {};
      if (type !== undefined) changes.type = type;
      if (account !== undefined) changes.account = account.id;
      if (Object.keys(changes).length > 0) {
        await tem.nativeUpdate(Transaction, { user: userId, id: { $in: chunk } }, changes);
        recorder.updated('transaction', chunk, {
          ...(type !== undefined && { type }),
          ...(account !== undefined && { account_id: account.id }),
        });
      }
    }
    if (account !== undefined) {
      await refuseBrokenLinks(tem, userId, shared);
      for (let i = 0; i < shared.length; i += 500) await releaseUnfitMatches(tem, userId, shared.slice(i, i + 500));
    }
    await recorder.finish('bulk-edit', bulkSummary(ids.length, input.updates));
    return transactionsByIds(tem, userId, ids);
  });
}

/** "Changed the category of 312 transactions to Groceries", and the like. */
function bulkSummary(n: number, updates: BulkUpdateInput['updates']): string {
  const changes = [
    updates.category !== undefined ? `the category${updates.category ? ` to ${updates.category}` : ' to none'}` : null,
    updates.type !== undefined ? `the type to ${updates.type}` : null,
    updates.account ? `the account to ${updates.account}` : null,
  ].filter(Boolean);
  return `Changed ${changes.join(', ')} of ${n} transaction${n === 1 ? '' : 's'}`;
}

/**
 * Splits a transaction into parts that carry its sign and sum exactly to it. Posting a
 * split for a parent that is already split replaces its parts (that is how a split is edited).
 */
export async function splitTransaction(
  em: EntityManager,
  userId: number,
  id: number,
  input: SplitInput,
): Promise<SplitDetails> {
  return em.transactional(async (tem) => {
    const parent = await ownTransaction(tem, userId, id);
    if (parent.parent) {
      throw new AppError(
        'CONFLICT',
        'This transaction is part of a split and cannot be split again; edit the split of its parent instead',
      );
    }
    if (parent.transfer) {
      throw new AppError(
        'CONFLICT',
        `Transaction ${parent.id} is one side of a transfer and cannot be split; unlink the transfer first`,
      );
    }
    const account = parent.account ? await tem.findOne(Account, { id: parent.account.id, user: userId }) : null;
    const check = validateSplit(parent.amount, input.splits, account ? minorUnitsOf(account.currency) : 2);
    if (!check.ok) throw new AppError('BAD_REQUEST', check.message, { code: check.code });
    const counted = input.splits.filter((entry) => entry.category.trim());
    const recorder = new ChangeRecorder(tem, userId);
    await recorder.touch('transaction', await withSplitFamilies(tem, userId, [parent.id]));
    await tem.nativeDelete(Transaction, { user: userId, parent: parent.id });
    const now = new Date().toISOString();
    for (const entry of counted) {
      const categoryId = await resolveCategoryId(tem, userId, entry.category);
      tem.create(Transaction, {
        user: tem.getReference(User, userId),
        account: parent.account ? tem.getReference(Account, parent.account.id) : null,
        category: categoryId ? tem.getReference(Category, categoryId) : null,
        categorySource: categoryId ? 'user' : null,
        postDate: parent.postDate,
        description: entry.description?.trim() || parent.description,
        amount: entry.amount,
        type: parent.type,
        isSplit: false,
        parent,
        splitNote: entry.splitNote?.trim() || null,
        batch: parent.batch ?? null,
        createdAt: now,
      });
    }
    parent.isSplit = true;
    await tem.flush();
    recorder.created('transaction', await withSplitFamilies(tem, userId, [parent.id]));
    await recorder.finish('split', `Split “${parent.description}” into ${counted.length} parts`);
    return getSplits(tem, userId, id);
  });
}

/** The split a transaction belongs to, asked for by its parent or any part. */
export async function getSplits(em: EntityManager, userId: number, id: number): Promise<SplitDetails> {
  const tx = await getTransaction(em, userId, id);
  const parentId = tx.parentTransactionId ?? id;
  const parentTransaction = parentId === id ? tx : await getTransaction(em, userId, parentId);
  const { rows: childTransactions } = await readsOf(em).page(userId, { parentId }, { order: 'written' });
  if (!parentTransaction.isSplit && childTransactions.length === 0) {
    throw new AppError('NOT_FOUND', `Transaction ${id} is not split`);
  }
  return { parentTransaction, childTransactions };
}

/** Clears isSplit on parents that have no parts left; answers how many were fixed. */
export async function fixSplitStatus(em: EntityManager, userId: number): Promise<{ message: number; fixed: number }> {
  const fixed = await clearEmptySplits(em, userId);
  return { message: fixed, fixed };
}
