/**
 * After an import commits: pairs the new batch's rows with unlinked rows of the user's other accounts
 * (src/shared/transfers/match.ts), links the sure pairs and stores the others as offers. Set-based:
 * each account's rows of the batch's dates that could pair (one below zero only when another
 * account holds its opposite) are read as one list of amounts a day from the account's
 * (account, date, amount) index alone, and sieved by amount and date in memory (pairing.ts); only
 * the few rows that pair, and their rivals, are then looked up by account, date and amount, read
 * whole and matched.
 */
import type { EntityManager } from '@mikro-orm/knex';
import { addDays, fromDayNumber, toDayNumber } from '../../../shared/dates/calendar';
import type { ImportTransfers } from '../../../shared/schemas/transfers';
import { TransferMatcher, type MatchRow, type PairFound, type TransferMatches } from '../../../shared/transfers/match';
import { sievePairs, type RowColumns } from '../../../shared/transfers/pairing';
import { must } from '../../../shared/must';
import type { RowImage } from '../../db/row-images';
import { ChangeRecorder } from '../history/recorder';
import { crossCurrencyPairs, type UserAccount } from './cross-currency-offers';
import {
  listAggSql,
  reserveIds,
  sqlTx,
  type SqlCount,
  TRANSACTION_TABLE,
  tuplesSql,
  valuesSql,
  withUserScope,
  type SqlTx,
} from '../../db/sql';

/** Pairs matched between two pauses. */
const CHUNK = 2000;
/** Pairs an upload answer lists of each kind; the counts say how many there were. */
export const LISTED_PAIRS = 100;
/** Any number for the first key of the lock: with the user id it names one user's detection. */
const TRANSFER_LOCK_CLASS = 18_002;

type Pause = () => Promise<void> | undefined;

/** A committed batch: its id, account and the first and last of its rows' dates. */
export interface DetectedBatch {
  id: string;
  accountId: number;
  dates: [string, string];
}

/** Pairs a committed batch's rows with the other accounts' rows; answers what it linked and offered. */
export async function detectTransfers(
  em: EntityManager,
  userId: number,
  batch: DetectedBatch,
  pause: Pause,
): Promise<ImportTransfers> {
  return withUserScope(em, userId, (sem) =>
    sem.transactional(async (tem) => {
      const db = await sqlTx(tem);
      // One detection of a user at a time: two imports finishing together never link one row twice.
      await db.lock(TRANSFER_LOCK_CLASS, userId);
      return detectIn(tem, db, userId, batch, pause);
    }),
  );
}

async function detectIn(
  em: EntityManager,
  db: SqlTx,
  userId: number,
  batch: DetectedBatch,
  pause: Pause,
): Promise<ImportTransfers> {
  const none: ImportTransfers = { linked: [], offered: [], linkedCount: 0, offeredCount: 0 };
  const [settings] = await db.all<{ window: number }>(
    'select transfer_window_days as window from "user" where id = ?',
    [userId],
  );
  const windowDays = settings?.window ?? 0;
  const accounts = await db.all<UserAccount>('select id, name, currency from account where user_id = ?', [userId]);
  const detection = { batch, windowDays, accounts, isDismissed: await dismissedPairs(db, userId) };
  const same = await sameCurrencyPairs(em, db, userId, detection, pause);
  const paired = new Set([...same.linked, ...same.offered].flatMap((pair) => [pair.fromId, pair.toId]));
  const across = await crossCurrencyPairs(em, db, userId, detection, paired, pause);
  if (same.linked.length === 0 && same.offered.length === 0 && across.length === 0) return none;
  const linked = await writeLinks(db, userId, same.linked);
  await ChangeRecorder.recordImportDeleted(em, userId, batch.id, 'transfer_candidate', linked.settled);
  const offers = [...same.offered, ...across];
  const offered = await writeOffers(db, userId, offers);
  return { linked: linked.listed, offered, linkedCount: linked.count, offeredCount: offers.length };
}

/** The batch's pairs with rows of the same currency: the sure ones to link, the others to offer (match.ts). */
async function sameCurrencyPairs(
  em: EntityManager,
  db: SqlTx,
  userId: number,
  detection: { batch: DetectedBatch; windowDays: number; accounts: readonly UserAccount[]; isDismissed: Dismissed },
  pause: Pause,
): Promise<TransferMatches> {
  const { batch, windowDays } = detection;
  const { own, others } = await sieveColumns(em, db, userId, batch, windowDays, pause);
  const sieve = sievePairs(own, others, windowDays);
  if (sieve.own.length === 0) return { linked: [], offered: [] };
  await pause();
  const keys = [
    ...sieve.own.map((k) => rowKey(own, k)),
    ...[...sieve.counterparts, ...sieve.rivals].map((j) => rowKey(others, j)),
  ];
  const rows = await rowsAt(db, userId, keys, pause);
  const fresh = rows.filter((row) => row.batchId === batch.id);
  const matcher = new TransferMatcher(detection.accounts, windowDays, detection.isDismissed);
  matcher.add(fresh, true);
  matcher.add(
    rows.filter((row) => row.batchId !== batch.id),
    false,
  );
  for (const step of ['link', 'offer'] as const)
    for (let i = 0; i < fresh.length; i += CHUNK) {
      matcher[step](fresh.slice(i, i + CHUNK));
      await pause();
    }
  return matcher.result;
}

type Dismissed = (a: number, b: number) => boolean;

/**
 * The rows to sieve as columns, dated up to two windows beyond the batch (a counterpart's own
 * rivals are dated up to one window beyond it): the batch account's (`own`: the batch's rows and
 * the account's older rows alike; which are the batch's is read with the few that pair) and the
 * other accounts' of the same currency (`others`). Most rows can never pair: the database leaves
 * out those whose opposite amount no other of these accounts holds (a semi-join on amount, see
 * below); dates and every other rule stay with the sieve. One account a statement (the user's
 * accounts only), a pause between.
 */
async function sieveColumns(
  em: EntityManager,
  db: SqlTx,
  userId: number,
  batch: DetectedBatch,
  windowDays: number,
  pause: Pause,
): Promise<{ own: RowColumns; others: RowColumns }> {
  const own: RowColumns[] = [];
  const others: RowColumns[] = [];
  // The two sides of a transfer are in one currency: accounts in another are not read.
  const accounts = await db.all<{ id: number }>(
    'select id from account where user_id = ? and currency = (select currency from account where id = ? and user_id = ?)',
    [userId, batch.accountId, userId],
  );
  const otherIds = accounts.map((account) => account.id).filter((id) => id !== batch.accountId);
  const from = addDays(batch.dates[0], -2 * windowDays);
  const to = addDays(batch.dates[1], 2 * windowDays);
  // A pair has one side above zero and one below, and the rows above zero are few (pay, refunds, transfers in):
  // every row above zero is read, a row below zero only if another of these accounts holds its opposite. Only the
  // few rows above zero make the set each row is sought in; counterparts and their rivals are all kept.
  const readAccount = async (account: number) => {
    const elsewhere = accounts.map(({ id }) => id).filter((id) => id !== account);
    const days = await db.all<DayAmounts>(
      `select post_date, count(*) as n, ${listAggSql(em, 'amount')} as amounts from ${TRANSACTION_TABLE}
        where account_id = ? and post_date >= ? and post_date <= ? and is_split = false and amount <> 0
          and (amount > 0 or -amount in (select amount from ${TRANSACTION_TABLE}
            where account_id in (${elsewhere.map(() => '?').join(', ')}) and post_date >= ? and post_date <= ?
              and is_split = false and amount > 0))
        group by post_date`,
      [account, from, to, ...elsewhere, from, to],
    );
    await pause();
    return accountColumns(account, days);
  };
  for (const account of otherIds) others.push(await readAccount(account));
  // When no other account holds a row of these days, nothing pairs and the batch's account is not read.
  if (others.some((part) => part.amounts.length > 0)) own.push(await readAccount(batch.accountId));
  return { own: joinColumns(own), others: joinColumns(others) };
}

/** One day of an account: its date, how many rows, and their amounts as a comma-separated list. */
interface DayAmounts {
  post_date: string;
  n: SqlCount;
  amounts: string;
}

/** An account's days as columns: one parse of every amount, the days and the account filled in by ranges. */
function accountColumns(account: number, days: readonly DayAmounts[]): RowColumns {
  const amounts = JSON.parse(`[${days.map((day) => day.amounts).join(',')}]`) as number[];
  const dayNumbers = new Int32Array(amounts.length);
  let at = 0;
  for (const day of days) {
    const n = Number(day.n);
    dayNumbers.fill(toDayNumber(day.post_date), at, at + n);
    at += n;
  }
  return { amounts, days: dayNumbers, accounts: new Int32Array(amounts.length).fill(account) };
}

function joinColumns(parts: readonly RowColumns[]): RowColumns {
  const length = parts.reduce((sum, part) => sum + part.amounts.length, 0);
  const joined = { amounts: new Float64Array(length), days: new Int32Array(length), accounts: new Int32Array(length) };
  let at = 0;
  for (const part of parts) {
    joined.amounts.set(part.amounts, at);
    joined.days.set(part.days, at);
    joined.accounts.set(part.accounts, at);
    at += part.amounts.length;
  }
  return joined;
}

/** Where a row is: its account, date and amount (rows alike in the three are read together). */
type RowKey = [account: number, date: string, amount: number];

function rowKey(rows: RowColumns, position: number): RowKey {
  return [
    rows.accounts[position] as number,
    fromDayNumber(rows.days[position] as number),
    rows.amounts[position] as number,
  ];
}

/** A row read whole, as the matcher takes it, with its batch. */
type WholeRow = MatchRow & { batchId: string | null };

/**
 * The rows at these places that can be a side (counted, no split part, not linked yet), read whole:
 * the texts an account's name may be in (the description and, when a rule renamed the row, the bank's).
 * Many places a statement, each looked up through the (account, date, amount) index: the user's own index would
 * be read whole instead, so the user condition leaves it out (`+t.user_id`), as the links' update does.
 */
async function rowsAt(db: SqlTx, userId: number, keys: readonly RowKey[], pause: Pause): Promise<WholeRow[]> {
  const places = [...new Map(keys.map((key) => [key.join(':'), key])).values()];
  const rows = new Map<number, WholeRow>();
  for (let i = 0; i < places.length; i += CHUNK) {
    const part = places.slice(i, i + CHUNK);
    const at = tuplesSql(db, 'k', PLACE_COLUMNS, part);
    const found = await db.all<{ id: number; n: SqlCount; text: string; batch_id: string | null }>(
      `select t.id, k.n, t.description || ' ' || coalesce(t.bank_description, '') as text, t.batch_id
         from ${at.sql} join ${TRANSACTION_TABLE} t
           on t.account_id = k.account_id and t.post_date = k.post_date and t.amount = k.amount
        where +t.user_id = ? and t.is_split = false and t.parent_id is null and t.transfer_id is null`,
      [...at.params, userId],
    );
    for (const row of found) {
      const [accountId, postDate, amount] = must(part[Number(row.n)], 'each row found is at one of the places');
      rows.set(row.id, { id: row.id, accountId, postDate, amount, description: row.text, batchId: row.batch_id });
    }
    await pause();
  }
  return [...rows.values()];
}

/** A place's columns, as rowsAt joins them (with their types on PostgreSQL). */
const PLACE_COLUMNS = [
  ['account_id', 'int'],
  ['post_date', 'varchar'],
  ['amount', 'bigint'],
] as const;

/** Which pairs a person turned down (as "lower id:higher id"). */
async function dismissedPairs(db: SqlTx, userId: number): Promise<Dismissed> {
  const rows = await db.all<{ first_id: number; second_id: number }>(
    "select first_id, second_id from transfer_candidate where user_id = ? and status = 'dismissed'",
    [userId],
  );
  const pairs = new Set(rows.map((pair) => `${pair.first_id}:${pair.second_id}`));
  return (a, b) => pairs.size > 0 && pairs.has(a < b ? `${a}:${b}` : `${b}:${a}`);
}

/**
 * Links the pairs: a transfer each, then both sides, many a statement. A side linked meanwhile (by hand) keeps its
 * link; its pair's transfer goes, which unlinks the other side if it got this one.
 */
async function writeLinks(
  db: SqlTx,
  userId: number,
  pairs: readonly PairFound[],
): Promise<{ listed: ImportTransfers['linked']; count: number; settled: RowImage[] }> {
  if (pairs.length === 0) return { listed: [], count: 0, settled: [] };
  const now = new Date().toISOString();
  const transferIds = await reserveIds(db, 'transfer', pairs.length);
  const perInsert = db.maxRowsPerInsert(4);
  for (let i = 0; i < pairs.length; i += perInsert) {
    const ids = transferIds.slice(i, i + perInsert);
    await db.run(
      `insert into transfer (id, user_id, origin, created_at) values ${valuesSql("(?, ?, 'import', ?)", ids.length)}`,
      ids.flatMap((id) => [id, userId, now]),
    );
  }
  for (let i = 0; i < pairs.length; i += CHUNK) {
    const sides = pairs.slice(i, i + CHUNK).flatMap((pair, j) => {
      const transferId = transferIds[i + j] as number;
      return [
        [pair.fromId, transferId],
        [pair.toId, transferId],
      ];
    });
    const link = tuplesSql(db, 'k', SIDE_COLUMNS, sides);
    await db.run(
      `update ${TRANSACTION_TABLE} as t set transfer_id = k.transfer_id from ${link.sql}
        where t.id = k.id and +t.user_id = ? and t.transfer_id is null`,
      [...link.params, userId],
    );
  }
  const reserved = new Set(transferIds);
  const bothSides = new Set<number>();
  if (transferIds.length > 0) {
    const counted = await db.all<{ transfer_id: number; n: SqlCount }>(
      `select transfer_id, count(*) as n from ${TRANSACTION_TABLE}
        where +user_id = ? and transfer_id >= ? and transfer_id <= ? group by transfer_id`,
      [userId, transferIds.reduce((a, b) => Math.min(a, b)), transferIds.reduce((a, b) => Math.max(a, b))],
    );
    for (const row of counted) if (reserved.has(row.transfer_id) && Number(row.n) === 2) bothSides.add(row.transfer_id);
  }
  const broken = transferIds.filter((id) => !bothSides.has(id));
  for (let i = 0; i < broken.length; i += 250) {
    const ids = broken.slice(i, i + 250);
    await db.run(`delete from transfer where user_id = ? and id in (${ids.map(() => '?').join(', ')})`, [
      userId,
      ...ids,
    ]);
  }
  const listed: ImportTransfers['linked'] = [];
  for (const [i, pair] of pairs.entries()) {
    const transferId = transferIds[i] as number;
    if (listed.length < LISTED_PAIRS && bothSides.has(transferId)) listed.push({ transferId, ...pair });
  }
  // An offer of a row now linked is settled: deleted, and kept whole for the import's undo.
  const settled: RowImage[] = [];
  for (let i = 0; i < pairs.length; i += 250) {
    const ids = pairs.slice(i, i + 250).flatMap((pair) => [pair.fromId, pair.toId]);
    const marks = ids.map(() => '?').join(', ');
    const offers = await db.all<RowImage>(
      `select * from transfer_candidate where user_id = ? and status = 'open' and (first_id in (${marks}) or second_id in (${marks}))`,
      [userId, ...ids, ...ids],
    );
    if (offers.length === 0) continue;
    settled.push(...offers);
    await db.run(`delete from transfer_candidate where user_id = ? and id in (${offers.map(() => '?').join(', ')})`, [
      userId,
      ...offers.map((offer) => offer.id),
    ]);
  }
  return { listed, count: bothSides.size, settled };
}

/** A side's columns, as writeLinks joins them (with their types on PostgreSQL). */
const SIDE_COLUMNS = [
  ['id', 'int'],
  ['transfer_id', 'int'],
] as const;

async function writeOffers(
  db: SqlTx,
  userId: number,
  pairs: readonly PairFound[],
): Promise<ImportTransfers['offered']> {
  const now = new Date().toISOString();
  const key = (pair: PairFound) => [Math.min(pair.fromId, pair.toId), Math.max(pair.fromId, pair.toId)];
  const rowsAtOnce = Math.min(200, db.maxRowsPerInsert(7));
  for (let i = 0; i < pairs.length; i += rowsAtOnce) {
    const part = pairs.slice(i, i + rowsAtOnce);
    await db.run(
      `insert into transfer_candidate (user_id, first_id, second_id, score, reason, status, created_at)
       values ${valuesSql("(?, ?, ?, ?, ?, 'open', ?)", part.length)} on conflict do nothing`,
      part.flatMap((pair) => [userId, ...key(pair), pair.score, pair.reason, now]),
    );
  }
  const shown = pairs.slice(0, LISTED_PAIRS);
  if (shown.length === 0) return [];
  const ids = await db.all<{ id: number; first_id: number; second_id: number }>(
    `select id, first_id, second_id from transfer_candidate
      where user_id = ? and (${shown.map(() => '(first_id = ? and second_id = ?)').join(' or ')})`,
    [userId, ...shown.flatMap(key)],
  );
  const idOf = new Map(ids.map((row) => [`${row.first_id}:${row.second_id}`, row.id]));
  return shown.flatMap((pair) => {
    const candidateId = idOf.get(key(pair).join(':'));
    return candidateId === undefined ? [] : [{ candidateId, ...pair }];
  });
}
