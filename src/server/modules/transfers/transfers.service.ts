import type { EntityManager } from '@mikro-orm/knex';
import { AppError } from '../../../shared/errors';
import { formatCents, minorUnitsOf } from '../../../shared/money';
import type { TransactionDto } from '../../../shared/schemas/transactions';
import type {
  CreateTransferInput,
  TransferCandidateDto,
  TransferDto,
  TransferOrigin,
} from '../../../shared/schemas/transfers';
import { findOwned } from '../../db/find-owned';
import { runSql, selectRows, TRANSACTION_TABLE, type SqlCount } from '../../db/sql';
import { readsOf } from '../../db/transaction-reads';
import { Account } from '../accounts/account.entity';
import { findAccountByName, ownAccount } from '../accounts/accounts.service';
import { ChangeRecorder } from '../history/recorder';
import { matchSchedulesAfterWrite } from '../schedules/schedule-runs';
import { Transaction } from '../transactions/transaction.entity';
import { User } from '../users/user.entity';
import { arrivingSide, checkLinkRate, transferRate } from './cross-currency';
import { endTransfers } from './transfer-links';
import { Transfer, TransferCandidate } from './transfer.entity';

function accountOf(em: EntityManager, userId: number, account: number | string): Promise<Account> {
  return typeof account === 'number' ? ownAccount(em, userId, account) : findAccountByName(em, userId, account);
}

/** The user's transactions with these ids, by id; ids that are not the user's are left out. */
async function dtosByIds(
  em: EntityManager,
  userId: number,
  ids: readonly number[],
): Promise<Map<number, TransactionDto>> {
  const out = new Map<number, TransactionDto>();
  for (let i = 0; i < ids.length; i += 500) {
    const { rows } = await readsOf(em).page(userId, { ids: ids.slice(i, i + 500) });
    for (const row of rows) out.set(row.id, row);
  }
  return out;
}

/** Two sides as money out first (by id when the amounts are 0). */
function outFirst<T extends { id: number; amount: number }>(a: T, b: T): [T, T] {
  if (a.amount !== b.amount) return a.amount < b.amount ? [a, b] : [b, a];
  return a.id < b.id ? [a, b] : [b, a];
}

/** A transfer with both sides as every transaction answer shows them. */
export async function getTransfer(em: EntityManager, userId: number, transferId: number): Promise<TransferDto> {
  await findOwned(em, Transfer, userId, transferId);
  const sides = await selectRows<{ id: number }>(
    em,
    `select id from ${TRANSACTION_TABLE} where user_id = ? and transfer_id = ?`,
    [userId, transferId],
  );
  const dtos = [
    ...(
      await dtosByIds(
        em,
        userId,
        sides.map((row) => row.id),
      )
    ).values(),
  ];
  const [a, b] = dtos;
  if (!a || !b) throw new AppError('NOT_FOUND', `Transfer ${transferId} not found`);
  const [from, to] = outFirst(a, b);
  return { transferId, from, to, rate: transferRate(from, to) };
}

/** Both sides of a new transfer in one transaction: money out of one account, the same in to the other. */
export async function createTransfer(
  em: EntityManager,
  userId: number,
  input: CreateTransferInput,
): Promise<TransferDto> {
  return em.transactional(async (tem) => {
    const from = await accountOf(tem, userId, input.fromAccount);
    const to = await accountOf(tem, userId, input.toAccount);
    if (from.id === to.id) {
      throw new AppError(
        'BAD_REQUEST',
        `fromAccount and toAccount are both '${from.name}': a transfer moves money between two accounts`,
      );
    }
    const arriving = await arrivingAmountOf(tem, from, to, input);
    const now = new Date().toISOString();
    const user = tem.getReference(User, userId);
    const transfer = tem.create(Transfer, { user, origin: 'created', createdAt: now });
    const side = (account: Account, amount: number, postDate: string, description: string) =>
      tem.create(Transaction, {
        user,
        account,
        category: null,
        categorySource: null,
        postDate,
        description,
        amount,
        type: 'transfer',
        isSplit: false,
        transfer,
        createdAt: now,
      });
    const out = side(from, -input.amount, input.date, input.description || `Transfer to ${to.name}`);
    const into = side(to, arriving, input.toDate ?? input.date, input.description || `Transfer from ${from.name}`);
    await tem.flush();
    // A transfer is a change like any other: undo takes both sides and the link away again.
    const recorder = new ChangeRecorder(tem, userId);
    recorder.created('transaction', [out.id, into.id]);
    recorder.created('transfer', [transfer.id]);
    await recorder.finish('create', `Added a transfer from ${from.name} to ${to.name}`);
    await matchSchedulesAfterWrite(tem, userId);
    return getTransfer(tem, userId, transfer.id);
  });
}

/** What arrives in `to`: the amount itself in one currency, else both amounts checked against the day's rate. */
async function arrivingAmountOf(
  em: EntityManager,
  from: Account,
  to: Account,
  input: CreateTransferInput,
): Promise<number> {
  if (from.currency === to.currency) {
    if (input.toAmount !== undefined && input.toAmount !== input.amount)
      throw new AppError(
        'BAD_REQUEST',
        `toAmount: '${from.name}' and '${to.name}' are both in ${from.currency}; the same amount arrives as leaves`,
      );
    return input.amount;
  }
  return arrivingSide(em, {
    amount: input.amount,
    from: from.currency,
    to: to.currency,
    date: input.date,
    given: input.toAmount,
  });
}

/** A row's part in a refusal: "transaction 12 (-50.00 in 'Checking')". */
function named(tx: Transaction): string {
  const digits = tx.account ? minorUnitsOf(tx.account.currency) : 2;
  return `transaction ${tx.id} (${formatCents(tx.amount, { digits })}${tx.account ? ` in '${tx.account.name}'` : ''})`;
}

/** Why two rows cannot be linked, or null when they can. */
async function linkRefusal(
  em: EntityManager,
  userId: number,
  a: Transaction,
  b: Transaction,
): Promise<AppError | null> {
  for (const tx of [a, b]) {
    if (tx.isSplit || tx.parent) {
      return new AppError(
        'BAD_REQUEST',
        `Transaction ${tx.id} is split or part of a split: a transfer links two whole transactions`,
      );
    }
    if (!tx.account) {
      return new AppError('BAD_REQUEST', `Transaction ${tx.id} has no account: a transfer links rows of two accounts`);
    }
  }
  if (a.account?.id === b.account?.id) {
    return new AppError(
      'BAD_REQUEST',
      `Both transactions are in the account '${a.account?.name ?? ''}': a transfer moves money between two accounts`,
    );
  }
  if (a.account && b.account && a.account.currency !== b.account.currency)
    return crossCurrencyRefusal(em, userId, a, b);
  if (a.amount === 0 || a.amount !== -b.amount) {
    return new AppError(
      'BAD_REQUEST',
      `The amounts are not opposite: ${named(a)} and ${named(b)}; one side of a transfer is money out, the other the same money in`,
    );
  }
  return linkedAlready(em, userId, a, b);
}

/** A conflict when either row is a side of a transfer already. */
async function linkedAlready(
  em: EntityManager,
  userId: number,
  a: Transaction,
  b: Transaction,
): Promise<AppError | null> {
  for (const [tx, other] of [
    [a, b],
    [b, a],
  ] as const) {
    if (!tx.transfer) continue;
    const [linked] = await selectRows<{ id: number }>(
      em,
      `select id from ${TRANSACTION_TABLE} where user_id = ? and transfer_id = ? and id <> ?`,
      [userId, tx.transfer.id, tx.id],
    );
    const to = linked ? `transaction ${linked.id}` : 'another transaction';
    if (linked && linked.id === other.id) {
      return new AppError(
        'CONFLICT',
        `Transactions ${a.id} and ${b.id} are already linked (transfer ${tx.transfer.id})`,
        {
          transferId: tx.transfer.id,
        },
      );
    }
    return new AppError(
      'CONFLICT',
      `Transaction ${tx.id} is already linked to ${to} (transfer ${tx.transfer.id}); unlink it first`,
      {
        transferId: tx.transfer.id,
      },
    );
  }
  return null;
}

/** Two rows of different currencies: one money out, the other money in, at about the out side's day's rate. */
async function crossCurrencyRefusal(
  em: EntityManager,
  userId: number,
  a: Transaction,
  b: Transaction,
): Promise<AppError | null> {
  if (a.amount === 0 || b.amount === 0 || a.amount < 0 === b.amount < 0) {
    return new AppError(
      'BAD_REQUEST',
      `The amounts are not opposite: ${named(a)} and ${named(b)}; one side of a transfer is money out, the other money in`,
    );
  }
  const [out, arrived] = a.amount < 0 ? [a, b] : [b, a];
  try {
    await checkLinkRate(
      em,
      { amount: out.amount, currency: out.account?.currency ?? '', date: out.postDate },
      { amount: arrived.amount, currency: arrived.account?.currency ?? '' },
    );
  } catch (refusal) {
    if (refusal instanceof AppError) return refusal;
    throw refusal;
  }
  return linkedAlready(em, userId, a, b);
}

/**
 * Links two rows as the sides of one transfer (two accounts, opposite amounts, neither linked yet).
 * Offers of either row end: they are now accounted for. Call inside a transaction.
 */
export async function linkRows(
  tem: EntityManager,
  userId: number,
  ids: readonly [number, number],
  origin: TransferOrigin,
): Promise<number> {
  const [firstId, secondId] = ids;
  if (firstId === secondId) throw new AppError('BAD_REQUEST', 'A transfer links two different transactions');
  const rows = await tem.find(
    Transaction,
    { id: { $in: [firstId, secondId] }, user: userId },
    { populate: ['account'] },
  );
  const missing = [firstId, secondId].filter((id) => !rows.some((row) => row.id === id));
  if (missing.length > 0) {
    throw new AppError('NOT_FOUND', `Transaction${missing.length === 1 ? '' : 's'} ${missing.join(', ')} not found`);
  }
  const [a, b] = [firstId, secondId].map((id) => rows.find((row) => row.id === id)) as [Transaction, Transaction];
  const refusal = await linkRefusal(tem, userId, a, b);
  if (refusal) throw refusal;
  const transfer = tem.create(Transfer, {
    user: tem.getReference(User, userId),
    origin,
    createdAt: new Date().toISOString(),
  });
  await tem.flush();
  // Only rows still unlinked take the link: of two requests linking one row at once, one links it.
  const changed = await runSql(
    tem,
    `update ${TRANSACTION_TABLE} set transfer_id = ? where user_id = ? and id in (?, ?) and transfer_id is null`,
    [transfer.id, userId, firstId, secondId],
  );
  if (changed !== 2)
    throw new AppError('CONFLICT', `Transaction ${firstId} or ${secondId} was linked meanwhile; try again`);
  await runSql(
    tem,
    `delete from transfer_candidate where user_id = ? and status = 'open' and (first_id in (?, ?) or second_id in (?, ?))`,
    [userId, firstId, secondId, firstId, secondId],
  );
  return transfer.id;
}

/** Links two existing rows (POST /transfers/link). */
export async function linkTransactions(
  em: EntityManager,
  userId: number,
  ids: readonly number[],
): Promise<TransferDto> {
  const [a, b] = ids as [number, number];
  return em.transactional(async (tem) => getTransfer(tem, userId, await linkRecorded(tem, userId, [a, b], 'linked')));
}

/**
 * Links two rows as linkRows does, recorded in the history so that undo ends the link again and brings back the
 * offers of either row that the link settled.
 */
async function linkRecorded(
  tem: EntityManager,
  userId: number,
  ids: readonly [number, number],
  origin: TransferOrigin,
): Promise<number> {
  const recorder = new ChangeRecorder(tem, userId);
  await recorder.touchTransactions(ids);
  await recorder.touch('transfer_candidate', await openOffersOf(tem, userId, ids));
  const transferId = await linkRows(tem, userId, ids, origin);
  recorder.created('transfer', [transferId]);
  const names = await accountNames(tem, userId, transferId);
  await recorder.finish(
    'edit',
    origin === 'accepted' ? `Accepted the offered transfer between ${names}` : `Linked the transfer between ${names}`,
  );
  return transferId;
}

/** The ids of the open offers either of these rows is in. */
async function openOffersOf(em: EntityManager, userId: number, ids: readonly number[]): Promise<number[]> {
  const marks = ids.map(() => '?').join(', ');
  const rows = await selectRows<{ id: number }>(
    em,
    `select id from transfer_candidate where user_id = ? and status = 'open' and (first_id in (${marks}) or second_id in (${marks}))`,
    [userId, ...ids, ...ids],
  );
  return rows.map((row) => row.id);
}

/** "Checking and Savings": the accounts of a link's two sides, for a history summary. */
async function accountNames(em: EntityManager, userId: number, transferId: number): Promise<string> {
  const rows = await selectRows<{ name: string }>(
    em,
    `select a.name from ${TRANSACTION_TABLE} t join account a on a.id = t.account_id
      where t.user_id = ? and t.transfer_id = ? order by t.amount, t.id`,
    [userId, transferId],
  );
  return rows.map((row) => row.name).join(' and ');
}

/** Ends a link; both rows stay. */
export async function unlinkTransfer(
  em: EntityManager,
  userId: number,
  transferId: number,
): Promise<{ message: string }> {
  return em.transactional(async (tem) => {
    await findOwned(tem, Transfer, userId, transferId);
    const sides = await selectRows<{ id: number }>(
      tem,
      `select id from ${TRANSACTION_TABLE} where user_id = ? and transfer_id = ?`,
      [userId, transferId],
    );
    const names = await accountNames(tem, userId, transferId);
    const recorder = new ChangeRecorder(tem, userId);
    await recorder.touchTransactions(sides.map((row) => row.id));
    await endTransfers(tem, userId, [transferId]);
    await recorder.finish('edit', `Unlinked the transfer between ${names}`);
    return { message: `Transfer ${transferId} unlinked; both transactions kept` };
  });
}

interface CandidateRow {
  id: number;
  first_id: number;
  second_id: number;
  score: number;
  reason: string;
}

/** The open offers, surest first: both rows still unlinked. */
export async function listCandidates(
  em: EntityManager,
  userId: number,
  page: { limit?: number; offset?: number } = {},
): Promise<{ rows: TransferCandidateDto[]; total: number }> {
  const where = `c.user_id = ? and c.status = 'open'
      and exists (select 1 from ${TRANSACTION_TABLE} f where f.id = c.first_id and f.transfer_id is null)
      and exists (select 1 from ${TRANSACTION_TABLE} s where s.id = c.second_id and s.transfer_id is null)`;
  const [count] = await selectRows<{ n: SqlCount }>(
    em,
    `select count(*) as n from transfer_candidate c where ${where}`,
    [userId],
  );
  const rows = await selectRows<CandidateRow>(
    em,
    `select c.id, c.first_id, c.second_id, c.score, c.reason from transfer_candidate c where ${where}
      order by c.score desc, c.id limit ? offset ?`,
    [userId, page.limit ?? CANDIDATE_PAGE, page.offset ?? 0],
  );
  const dtos = await dtosByIds(
    em,
    userId,
    rows.flatMap((row) => [row.first_id, row.second_id]),
  );
  const out: TransferCandidateDto[] = [];
  for (const row of rows) {
    const first = dtos.get(row.first_id);
    const second = dtos.get(row.second_id);
    if (!first || !second) continue;
    const [from, to] = outFirst(first, second);
    out.push({ id: row.id, score: row.score, reason: row.reason, from, to });
  }
  return { rows: out, total: Number(count?.n ?? 0) };
}

/** Offers one answer lists unless asked for more. */
export const CANDIDATE_PAGE = 200;

async function openCandidate(em: EntityManager, userId: number, id: number): Promise<TransferCandidate> {
  const candidate = await findOwned(em, TransferCandidate, userId, id);
  if (candidate.status !== 'open') {
    throw new AppError('CONFLICT', `Transfer candidate ${id} was dismissed; link the two transactions instead`);
  }
  return candidate;
}

/** Links an offered pair. */
export async function acceptCandidate(em: EntityManager, userId: number, id: number): Promise<TransferDto> {
  return em.transactional(async (tem) => {
    const candidate = await openCandidate(tem, userId, id);
    const transferId = await linkRecorded(tem, userId, [candidate.first.id, candidate.second.id], 'accepted');
    return getTransfer(tem, userId, transferId);
  });
}

/** Dismisses an offered pair: kept as dismissed, so no import offers it again (recorded: undo offers it again). */
export async function dismissCandidate(em: EntityManager, userId: number, id: number): Promise<{ message: string }> {
  return em.transactional(async (tem) => {
    const candidate = await openCandidate(tem, userId, id);
    const recorder = new ChangeRecorder(tem, userId);
    await recorder.touch('transfer_candidate', [id]);
    candidate.status = 'dismissed';
    await tem.flush();
    await recorder.finish('edit', `Dismissed the offered transfer between ${await offerNames(tem, userId, id)}`);
    return { message: `Transfer candidate ${id} dismissed; it will not be offered again` };
  });
}

/** "Checking and Savings": the accounts of an offer's two rows, the outgoing one first, for a history summary. */
async function offerNames(em: EntityManager, userId: number, candidateId: number): Promise<string> {
  const rows = await selectRows<{ name: string }>(
    em,
    `select a.name from transfer_candidate c join ${TRANSACTION_TABLE} t on t.id in (c.first_id, c.second_id)
       join account a on a.id = t.account_id
      where c.user_id = ? and c.id = ? order by t.amount, t.id`,
    [userId, candidateId],
  );
  return rows.map((row) => row.name).join(' and ');
}
