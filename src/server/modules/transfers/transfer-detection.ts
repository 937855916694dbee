/**
 * After an import commits: pairs the new batch's rows with unlinked rows of the user's other accounts
 * (src/shared/transfers/match.ts), links the sure pairs and stores the others as offers. Set-based:
 * the user's rows of the batch's dates are read once, from the covering index alone (id, account,
 * date, amount), and indexed by amount; only the few rows that pair are then read whole (linked?
 * a split part? their descriptions).
 */
import type { EntityManager } from '@mikro-orm/knex';
import { addDays } from '../../../shared/dates/calendar';
import type { ImportTransfers } from '../../../shared/schemas/transfers';
import { TransferMatcher, type MatchRow, type PairFound } from '../../../shared/transfers/match';
import { sqlTx, TRANSACTION_TABLE, valuesSql, withUserScope, type SqlTx } from '../../db/sql';

/** Rows read, indexed or matched between two pauses. */
const CHUNK = 2000;
/** Pairs an upload answer lists of each kind; the counts say how many there were. */
export const LISTED_PAIRS = 100;
/** Any number for the first key of the lock: with the user id it names one user's detection. */
const TRANSFER_LOCK_CLASS = 18_002;

type Pause = () => Promise<void> | undefined;

/** A row as the covering index of the user's dated rows holds it: id, account, date, amount. */
type IndexRow = [number, number | null, string, number | string];

/** Pairs a committed batch's rows with the other accounts' rows; answers what it linked and offered. */
export async function detectTransfers(
  em: EntityManager,
  userId: number,
  batchId: string,
  pause: Pause,
): Promise<ImportTransfers> {
  return withUserScope(em, userId, (sem) =>
    sem.transactional(async (tem) => {
      const db = await sqlTx(tem);
      // One detection of a user at a time: two imports finishing together never link one row twice.
      await db.lock(TRANSFER_LOCK_CLASS, userId);
      return detectIn(db, userId, batchId, pause);
    }),
  );
}

async function detectIn(db: SqlTx, userId: number, batchId: string, pause: Pause): Promise<ImportTransfers> {
  const none: ImportTransfers = { linked: [], offered: [], linkedCount: 0, offeredCount: 0 };
  const [span] = await db.all<{ first: string | null; last: string | null; window: number }>(
    `select min(post_date) as first, max(post_date) as last,
       (select transfer_window_days from "user" where id = ?) as window
       from ${TRANSACTION_TABLE} where user_id = ? and batch_id = ?`,
    [userId, userId, batchId],
  );
  if (!span?.first || !span.last) return none;
  const windowDays = span.window;
  const batchRows = new Set<number>();
  for await (const chunk of db.iterate<[number]>(
    `select id from ${TRANSACTION_TABLE} where batch_id = ? and user_id = ?`,
    [batchId, userId],
    CHUNK * 10,
  )) {
    for (const [id] of chunk) batchRows.add(id);
    await pause();
  }
  // Two windows either side: a candidate's own rivals are dated up to one window beyond it.
  const fresh: MatchRow[] = [];
  const others: MatchRow[] = [];
  for await (const chunk of db.iterate<IndexRow>(
    `select id, account_id, post_date, amount from ${TRANSACTION_TABLE}
      where user_id = ? and post_date >= ? and post_date <= ? and is_split = false and amount <> 0 and account_id is not null`,
    [userId, addDays(span.first, -2 * windowDays), addDays(span.last, 2 * windowDays)],
    CHUNK * 10,
  )) {
    for (const [id, accountId, postDate, amount] of chunk) {
      const row = { id: id, accountId: Number(accountId), postDate, amount: Number(amount) };
      (batchRows.has(row.id) ? fresh : others).push(row);
    }
    await pause();
  }
  if (fresh.length === 0) return none;
  const amounts = new Set(fresh.map((row) => Math.abs(row.amount)));
  const matcher = new TransferMatcher(
    (await db.all<{ id: number; name: string }>('select id, name from account where user_id = ?', [userId])).map(
      (a) => ({ id: a.id, name: a.name }),
    ),
    windowDays,
    await dismissedPairs(db, userId),
  );
  matcher.add(fresh, true);
  matcher.add(
    others.filter((row) => amounts.has(Math.abs(row.amount))),
    false,
  );
  await pause();
  const involved: number[] = [];
  for (let i = 0; i < fresh.length; i += CHUNK) {
    involved.push(...matcher.rowsToDescribe(fresh.slice(i, i + CHUNK)));
    await pause();
  }
  const { texts, unavailable } = await rowsInFull(db, userId, involved, pause);
  matcher.exclude(unavailable);
  matcher.describe(texts);
  for (const step of ['link', 'offer'] as const)
    for (let i = 0; i < fresh.length; i += CHUNK) {
      matcher[step](fresh.slice(i, i + CHUNK));
      await pause();
    }
  const linked = await writeLinks(db, userId, matcher.result.linked);
  const offered = await writeOffers(db, userId, matcher.result.offered);
  return { linked, offered, linkedCount: matcher.result.linked.length, offeredCount: matcher.result.offered.length };
}

/** Which pairs a person turned down (as "lower id:higher id"). */
async function dismissedPairs(db: SqlTx, userId: number): Promise<(a: number, b: number) => boolean> {
  const rows = await db.all<{ first_id: number; second_id: number }>(
    "select first_id, second_id from transfer_candidate where user_id = ? and status = 'dismissed'",
    [userId],
  );
  const pairs = new Set(rows.map((pair) => `${pair.first_id}:${pair.second_id}`));
  return (a, b) => pairs.size > 0 && pairs.has(a < b ? `${a}:${b}` : `${b}:${a}`);
}

/**
 * The rows that pair, read whole: the texts an account's name may be in (the description and, when a
 * rule renamed the row, the bank's), and those that cannot be a side (linked already, or a split part).
 */
async function rowsInFull(db: SqlTx, userId: number, ids: readonly number[], pause: Pause) {
  const texts = new Map<number, string>();
  const unavailable: number[] = [];
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 500) {
    const part = unique.slice(i, i + 500);
    const rows = await db.all<{ id: number; text: string; linked: number | null; parent_id: number | null }>(
      `select id, description || ' ' || coalesce(bank_description, '') as text, transfer_id as linked, parent_id
         from ${TRANSACTION_TABLE} where user_id = ? and id in (${part.map(() => '?').join(', ')})`,
      [userId, ...part],
    );
    for (const row of rows) {
      texts.set(row.id, row.text);
      if (row.linked !== null || row.parent_id !== null) unavailable.push(row.id);
    }
    await pause();
  }
  return { texts, unavailable };
}

async function writeLinks(db: SqlTx, userId: number, pairs: readonly PairFound[]): Promise<ImportTransfers['linked']> {
  const listed: ImportTransfers['linked'] = [];
  const now = new Date().toISOString();
  for (const pair of pairs) {
    const transferId = await db.insertId("insert into transfer (user_id, origin, created_at) values (?, 'import', ?)", [
      userId,
      now,
    ]);
    await db.run(
      `update ${TRANSACTION_TABLE} set transfer_id = ? where user_id = ? and id in (?, ?) and transfer_id is null`,
      [transferId, userId, pair.fromId, pair.toId],
    );
    if (listed.length < LISTED_PAIRS) listed.push({ transferId, ...pair });
  }
  // An offer of a row now linked is settled.
  for (let i = 0; i < pairs.length; i += 250) {
    const ids = pairs.slice(i, i + 250).flatMap((pair) => [pair.fromId, pair.toId]);
    const marks = ids.map(() => '?').join(', ');
    await db.run(
      `delete from transfer_candidate where user_id = ? and status = 'open' and (first_id in (${marks}) or second_id in (${marks}))`,
      [userId, ...ids, ...ids],
    );
  }
  return listed;
}

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
