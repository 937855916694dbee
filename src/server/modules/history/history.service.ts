import { lockUserSchedules, matchSchedulesAfterWrite } from '../schedules/schedule-runs';
import type { EntityManager } from '@mikro-orm/knex';
import { withCheckpointAfter } from '../../db/wal-checkpoint';
import { AppError } from '../../../shared/errors';
import {
  UNDOABLE_ENTRIES,
  type HistoryEntryDto,
  type HistoryKind,
  type HistoryList,
  type HistoryPage,
  type UndoResult,
} from '../../../shared/schemas/history';
import { findOwned } from '../../db/find-owned';
import { imageText, readImages, type ImagedTable, type RowImage } from '../../db/row-images';
import { selectRows, sqlTx, TRANSACTION_TABLE } from '../../db/sql';
import { applySide, changedSince } from './apply-images';
import { HistoryEntry } from './history.entity';
import { entryRows, insertHistoryRows, parseImage, unpackRow, type StoredRow } from './history-rows';
import { HISTORY_LOCK, purgeExpired, userRetention, type Retention } from './retention';
import { retrashRestored, trashDeletedRows, untrash, untrashRestored } from './trash';

/** Rows listed with each entry; the rest are counted. */
const ROWS_LISTED = 20;

export async function listHistory(
  em: EntityManager,
  userId: number,
  page: HistoryPage,
  retention: Retention,
): Promise<HistoryList> {
  await purgeExpired(em, userId, await userRetention(em, userId, retention));
  const entries = (
    await selectRows<{
      id: number;
      created_at: string;
      kind: string;
      summary: string;
      state: string;
      row_count: number;
    }>(
      em,
      'select id, created_at, kind, summary, state, row_count from history_entry where user_id = ? order by id desc limit ? offset ?',
      [userId, page.limit + 1, page.offset],
    )
  ).map((row) => ({
    id: row.id,
    createdAt: row.created_at,
    kind: row.kind,
    summary: row.summary,
    state: row.state,
    rowCount: row.row_count,
  }));
  const shown = entries.slice(0, page.limit);
  const oldest = shown.at(-1);
  const restore = oldest ? await latestRestore(em, userId, oldest.id) : null;
  return {
    entries: await Promise.all(
      shown.map((entry, i) => entryDto(em, userId, entry, readOnlyReason(entry, page.offset + i, restore))),
    ),
    hasMore: entries.length > page.limit,
  };
}

type EntryFields = Pick<HistoryEntry, 'id' | 'createdAt' | 'kind' | 'summary' | 'state' | 'rowCount'>;

/**
 * A restore is not undone: it filled an empty account with a whole backup (up to hundreds of thousands of rows,
 * kept in the history as a count, not as rows), so its undo would be deleting everything since.
 */
const RESTORE_REASON =
  'A restore from a backup cannot be undone: it filled an empty account with a whole backup. To go back, export your data and restore another backup into a new account.';

/**
 * Why an entry cannot be undone or redone (null when it can): `newer` entries of the user come after it, the
 * latest restore's id is `restore`. Entries before a restore are read-only: their rows were there before the
 * backup's came in.
 */
function readOnlyReason(entry: Pick<EntryFields, 'id' | 'kind' | 'state'>, newer: number, restore: number | null) {
  if (entry.kind === 'restore') return RESTORE_REASON;
  if (entry.state === 'purged') return 'This change cannot be undone: the rows it deleted were emptied from the trash';
  if (restore !== null && restore > entry.id)
    return 'This change cannot be undone or redone: a restore from a backup came after it';
  if (newer >= UNDOABLE_ENTRIES)
    return `Only the last ${UNDOABLE_ENTRIES} changes can be undone or redone; this one stays in the history to read`;
  return null;
}

/**
 * The id of the user's latest restore newer than entry `after`, if any: only the entries after it are read (through
 * the user's index by id), so a long history costs a page of entries, not the whole history.
 */
async function latestRestore(em: EntityManager, userId: number, after: number): Promise<number | null> {
  const [row] = await selectRows<{ id: number | null }>(
    em,
    "select max(id) as id from history_entry where user_id = ? and id > ? and kind = 'restore'",
    [userId, after],
  );
  return row?.id ?? null;
}

async function entryDto(
  em: EntityManager,
  userId: number,
  entry: EntryFields,
  reason: string | null,
): Promise<HistoryEntryDto> {
  const rows = await selectRows<{ table_name: string; row_id: string; before: string | null; after: string | null }>(
    em,
    'select table_name, row_id, "before", "after" from history_row where user_id = ? and entry_id = ? order by id limit ?',
    [userId, entry.id, ROWS_LISTED],
  );
  const listed = rows
    .flatMap((row) => unpackRow(row.table_name as ImagedTable, row.row_id, row.before, row.after))
    .slice(0, ROWS_LISTED);
  return {
    id: entry.id,
    createdAt: entry.createdAt,
    kind: entry.kind as HistoryKind,
    summary: entry.summary,
    state: entry.state as HistoryEntryDto['state'],
    rowCount: entry.rowCount,
    undoable: reason === null,
    readOnlyReason: reason,
    rows: listed.map((row) => ({
      table: row.table,
      rowId: row.id,
      before: parseImage(row.before),
      after: parseImage(row.after),
    })),
    moreRows: Math.max(0, entry.rowCount - listed.length),
  };
}

/** How many of the user's entries are newer than this one. */
async function newerEntries(em: EntityManager, userId: number, entryId: number): Promise<number> {
  const [row] = await selectRows<{ n: number | string }>(
    em,
    'select count(*) as n from history_entry where user_id = ? and id > ?',
    [userId, entryId],
  );
  return Number(row?.n ?? 0);
}

async function entryToChange(
  tem: EntityManager,
  userId: number,
  entryId: number,
  from: 'done' | 'undone',
): Promise<HistoryEntry> {
  await (await sqlTx(tem)).lock(HISTORY_LOCK, userId);
  // A schedule run waits for the undo or redo: it would post or change occurrences of schedules being put back.
  await lockUserSchedules(tem, userId);
  const entry = await findOwned(tem, HistoryEntry, userId, entryId);
  const reason = readOnlyReason(
    entry,
    await newerEntries(tem, userId, entryId),
    await latestRestore(tem, userId, entryId),
  );
  if (reason !== null) throw new AppError('CONFLICT', reason);
  if (entry.state !== from)
    throw new AppError('CONFLICT', from === 'done' ? 'This change is already undone' : 'This change is not undone');
  return entry;
}

function refuseChanged(changed: readonly string[], verb: 'undone' | 'redone'): void {
  if (changed.length === 0) return;
  const listed = changed.slice(0, 10).join(', ');
  const more = changed.length > 10 ? ` and ${changed.length - 10} more` : '';
  throw new AppError(
    'CONFLICT',
    `This change cannot be ${verb}: ${listed}${more} changed since. Undo the later changes first.`,
    { rows: changed.slice(0, 100) },
  );
}

/**
 * Undoing the create of a schedule deletes it with its occurrences: the rows it posted since (by the hourly job or
 * a later change) would stay behind as rows of no schedule while those the create posted go, so the undo is refused,
 * naming them, until they are deleted or their change undone. Rows it matched since are the user's own and stay, as
 * when a schedule is deleted.
 */
async function refuseOrphanedPosts(tem: EntityManager, userId: number, rows: readonly StoredRow[]): Promise<void> {
  const schedules = rows.filter((row) => row.table === 'schedule' && row.before === null && row.after !== null);
  if (schedules.length === 0) return;
  const held = new Set(rows.filter((row) => row.table === 'schedule_occurrence').map((row) => row.id));
  const posted = await selectRows<{ id: number; transaction_id: number }>(
    tem,
    `select id, transaction_id from schedule_occurrence
      where user_id = ? and status = 'posted' and transaction_id is not null
        and schedule_id in (${schedules.map(() => '?').join(', ')}) order by transaction_id`,
    [userId, ...schedules.map((row) => Number(row.id))],
  );
  const left = posted.filter((row) => !held.has(String(row.id))).map((row) => `transaction ${row.transaction_id}`);
  if (left.length === 0) return;
  const listed = left.slice(0, 10).join(', ');
  const more = left.length > 10 ? ` and ${left.length - 10} more` : '';
  throw new AppError(
    'CONFLICT',
    `This change cannot be undone: the schedule posted ${listed}${more} since, which would stay without it. Delete those rows (or undo the changes that posted them) first.`,
    { rows: left.slice(0, 100) },
  );
}

/** Puts every row an entry touched back as it was before it. */
export async function undoEntry(
  em: EntityManager,
  userId: number,
  entryId: number,
  today: string,
): Promise<UndoResult> {
  // An entry may hold tens of thousands of rows: see withCheckpointAfter.
  const result = await withCheckpointAfter(em, () =>
    em.transactional(async (tem) => {
      const entry = await entryToChange(tem, userId, entryId, 'done');
      if (entry.batchId) await imageImportedBatch(tem, userId, entry, entry.batchId);
      const rows = await entryRows(tem, userId, entry.id);
      refuseChanged(await changedSince(tem, userId, rows, 'after'), 'undone');
      await refuseOrphanedPosts(tem, userId, rows);
      await applySide(tem, userId, rows, 'before');
      await untrash(tem, userId, entry.id);
      if (entry.kind === 'trash-restore') await retrashRestored(tem, userId, entry.id);
      entry.state = 'undone';
      await tem.flush();
      return { entry: await entryDto(tem, userId, entry, null), message: `Undone: ${entry.summary}` };
    }),
  );
  // Rows put back (or taken away again) may be what an expected occurrence was waiting for.
  await matchSchedulesAfterWrite(em, userId, today);
  return result;
}

/** Applies an undone entry again. */
export async function redoEntry(
  em: EntityManager,
  userId: number,
  entryId: number,
  today: string,
): Promise<UndoResult> {
  // An entry may hold tens of thousands of rows: see withCheckpointAfter.
  const result = await withCheckpointAfter(em, () =>
    em.transactional(async (tem) => {
      const entry = await entryToChange(tem, userId, entryId, 'undone');
      const rows = await entryRows(tem, userId, entry.id);
      refuseChanged(await changedSince(tem, userId, rows, 'before'), 'redone');
      await applySide(tem, userId, rows, 'after');
      await trashDeletedRows(tem, userId, entry.id);
      if (entry.kind === 'trash-restore') await untrashRestored(tem, userId, entry.id);
      entry.state = 'done';
      await tem.flush();
      return { entry: await entryDto(tem, userId, entry, null), message: `Redone: ${entry.summary}` };
    }),
  );
  await matchSchedulesAfterWrite(em, userId, today);
  return result;
}

/**
 * An import keeps no row images (only the offers its transfer detection settled, as deleted rows); its first undo
 * takes them (so a redo can put the rows back), after checking that no later change touched a row it wrote. With its
 * rows go what its transfer detection wrote: the links of its rows (each transfer, and the other side's row, unlinked
 * before) and the offers naming them.
 */
async function imageImportedBatch(
  tem: EntityManager,
  userId: number,
  entry: HistoryEntry,
  batchId: string,
): Promise<void> {
  // Taken already when the entry holds its batch (it may hold only the offers its transfer detection settled).
  const imaged = await selectRows(
    tem,
    "select id from history_row where user_id = ? and entry_id = ? and table_name = 'batch' limit 1",
    [userId, entry.id],
  );
  if (imaged.length > 0) return;
  const touched = await selectRows<{ row_id: string; before: string | null; after: string | null }>(
    tem,
    `select hr.row_id, hr."before", hr."after" from history_row hr join history_entry he on he.id = hr.entry_id
      where hr.user_id = ? and he.id > ? and he.state = 'done' and hr.table_name = 'transaction'
        and (hr."before" like ? or hr."after" like ?) limit 100`,
    // The batch's id anywhere (a packed row holds its values without their names); each row is checked below.
    [userId, entry.id, `%${JSON.stringify(batchId)}%`, `%${JSON.stringify(batchId)}%`],
  );
  const ofBatch = (text: string | null) => parseImage(text)?.batch_id === batchId;
  refuseChanged(
    touched
      .flatMap((row) => unpackRow('transaction', row.row_id, row.before, row.after))
      .filter((row) => ofBatch(row.before) || ofBatch(row.after))
      .map((row) => `transaction ${row.id}`),
    'undone',
  );
  const ids = await selectRows<{ id: number }>(
    tem,
    `select id from ${TRANSACTION_TABLE} where user_id = ? and batch_id = ?`,
    [userId, batchId],
  );
  const images = await readImages(
    tem,
    userId,
    'transaction',
    ids.map((row) => row.id),
  );
  const batch = await readImages(tem, userId, 'batch', [batchId]);
  const created = (table: ImagedTable, of: ReadonlyMap<string, RowImage>): StoredRow[] =>
    [...of.entries()].map(([id, image]) => ({ table, id, before: null, after: imageText(image) }));
  const links = await detectedLinks(tem, userId, entry.id, batchId, images);
  const rows: StoredRow[] = [
    ...created('batch', batch),
    ...created('transfer', links.transfers),
    ...created('transaction', images),
    ...[...links.counterparts.entries()].map(([id, image]) => ({
      table: 'transaction' as const,
      id,
      before: imageText({ ...image, transfer_id: null }),
      after: imageText(image),
    })),
    ...created('transfer_candidate', links.offers),
  ];
  await insertHistoryRows(tem, userId, entry.id, rows);
}

/**
 * What transfer detection wrote for a batch's rows (`images`): the transfers linking them, the other accounts' rows
 * on the other side of those (linked by the detection: an unlinked row is all it pairs) and the offers naming them.
 * Refused, naming the rows, when a later change touched one of those or a later import linked or offered its rows
 * with them: undoing this import first would leave that change or import holding a link or offer to nothing.
 */
async function detectedLinks(
  tem: EntityManager,
  userId: number,
  entryId: number,
  batchId: string,
  images: ReadonlyMap<string, RowImage>,
): Promise<{ transfers: Map<string, RowImage>; counterparts: Map<string, RowImage>; offers: Map<string, RowImage> }> {
  const transferIds = [
    ...new Set([...images.values()].flatMap((image) => (image.transfer_id == null ? [] : [Number(image.transfer_id)]))),
  ];
  const notOfBatch = (id: number) => !images.has(String(id));
  // The batch's rows read as a set (by its batch index), not as a list of their ids, which may be very many.
  const ofBatch = `select id from ${TRANSACTION_TABLE} where user_id = ? and batch_id = ?`;
  const sides = await selectRows<{ id: number }>(
    tem,
    `select id from ${TRANSACTION_TABLE} where user_id = ? and transfer_id in
      (select transfer_id from ${TRANSACTION_TABLE} where user_id = ? and batch_id = ? and transfer_id is not null)`,
    [userId, userId, batchId],
  );
  const offered = await selectRows<{ id: number }>(
    tem,
    `select id from transfer_candidate where user_id = ? and (first_id in (${ofBatch}) or second_id in (${ofBatch}))`,
    [userId, userId, batchId, userId, batchId],
  );
  const transfers = await readImages(tem, userId, 'transfer', transferIds);
  const offers = await readImages(
    tem,
    userId,
    'transfer_candidate',
    offered.map((row) => row.id),
  );
  const counterparts = await readImages(tem, userId, 'transaction', sides.map((row) => row.id).filter(notOfBatch));
  const offeredWith = await readImages(
    tem,
    userId,
    'transaction',
    [...offers.values()].flatMap((offer) => [Number(offer.first_id), Number(offer.second_id)]).filter(notOfBatch),
  );
  const changed = new Set([
    ...(await ofLaterImports(tem, userId, entryId, batchId, [...counterparts.values(), ...offeredWith.values()])),
    ...(await touchedLater(tem, userId, entryId, 'transaction', [...counterparts.keys()])),
    ...(await touchedLater(tem, userId, entryId, 'transfer', [...transfers.keys()])),
    ...(await touchedLater(tem, userId, entryId, 'transfer_candidate', [...offers.keys()])),
  ]);
  refuseChanged([...changed], 'undone');
  return { transfers, counterparts, offers };
}

/** The rows (as "transaction 12") of these that an import after entry `entryId` wrote and that is still done. */
async function ofLaterImports(
  tem: EntityManager,
  userId: number,
  entryId: number,
  batchId: string,
  rows: readonly RowImage[],
): Promise<string[]> {
  const batches = [...new Set(rows.flatMap((row) => (typeof row.batch_id === 'string' ? [row.batch_id] : [])))].filter(
    (id) => id !== batchId,
  );
  if (batches.length === 0) return [];
  const later = await selectRows<{ batch_id: string }>(
    tem,
    `select batch_id from history_entry where user_id = ? and id > ? and state = 'done'
      and batch_id in (${batches.map(() => '?').join(', ')})`,
    [userId, entryId, ...batches],
  );
  const laterBatches = new Set(later.map((row) => row.batch_id));
  return rows.filter((row) => laterBatches.has(row.batch_id as string)).map((row) => `transaction ${String(row.id)}`);
}

/** The rows (as "transfer 3") of these that a change after entry `entryId`, still done, touched. */
async function touchedLater(
  tem: EntityManager,
  userId: number,
  entryId: number,
  table: ImagedTable,
  ids: readonly string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const wanted = new Set(ids);
  const found = new Set<string>();
  const later = `select hr.row_id, hr."before", hr."after" from history_row hr join history_entry he on he.id = hr.entry_id
    where hr.user_id = ? and he.id > ? and he.state = 'done' and hr.table_name = ?`;
  for (let i = 0; i < ids.length; i += 400) {
    const chunk = ids.slice(i, i + 400);
    const rows = await selectRows<{ row_id: string }>(
      tem,
      `${later} and hr.row_id in (${chunk.map(() => '?').join(', ')})`,
      [userId, entryId, table, ...chunk],
    );
    for (const row of rows) found.add(row.row_id);
  }
  // Rows a bulk edit set alike are kept packed as one, under no id of theirs (see packRows).
  const packed = await selectRows<{ row_id: string; before: string | null; after: string | null }>(
    tem,
    `${later} and hr.row_id = '*'`,
    [userId, entryId, table],
  );
  for (const row of packed)
    for (const held of unpackRow(table, row.row_id, row.before, row.after)) if (wanted.has(held.id)) found.add(held.id);
  return [...found].map((id) => `${table} ${id}`);
}
