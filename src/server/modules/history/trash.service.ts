import { matchSchedulesAfterWrite } from '../schedules/schedule-runs';
import type { EntityManager } from '@mikro-orm/knex';
import { AppError } from '../../../shared/errors';
import type { TrashItemDto, TrashRestoreInput } from '../../../shared/schemas/history';
import { imageText, insertImages, readImages, type RowImage } from '../../db/row-images';
import { runSql, selectRows, TRANSACTION_TABLE } from '../../db/sql';
import { refusingMissingReferences } from './apply-images';
import { entryRows, imageOf, parseImage, type StoredRow } from './history-rows';
import { ChangeRecorder } from './recorder';
import { emptyTrashOf, purgeExpired, userRetention, type Retention } from './retention';
import { untrash } from './trash';

interface TrashedRow {
  transaction_id: number;
  entry_id: number;
  post_date: string;
  description: string;
  amount: number;
  account_name: string | null;
  currency: string | null;
  deleted_at: string;
}

/** What the trash holds, newest deletions first (at most 1,000 rows). */
export async function listTrash(em: EntityManager, userId: number, retention: Retention): Promise<TrashItemDto[]> {
  await purgeExpired(em, userId, await userRetention(em, userId, retention));
  const rows = await selectRows<TrashedRow>(
    em,
    `select t.transaction_id, t.entry_id, t.post_date, t.description, t.amount, a.name as account_name, a.currency, t.deleted_at
       from trashed_transaction t left join account a on a.id = t.account_id
      where t.user_id = ? order by t.deleted_at desc, t.id desc limit 1000`,
    [userId],
  );
  const parts = await partsByParent(em, userId, [...new Set(rows.map((row) => row.entry_id))]);
  return rows.map((row) => ({
    transactionId: row.transaction_id,
    postDate: row.post_date,
    description: row.description,
    amount: row.amount,
    currency: row.currency,
    account: row.account_name,
    deletedAt: row.deleted_at,
    historyEntryId: row.entry_id,
    parts: parts.get(row.transaction_id)?.length ?? 0,
  }));
}

/** The split parts each entry deleted, by their parent's id. */
async function partsByParent(em: EntityManager, userId: number, entryIds: readonly number[]) {
  const parts = new Map<number, RowImage[]>();
  for (const entryId of entryIds)
    for (const row of await entryRows(em, userId, entryId)) {
      const image = row.table === 'transaction' && row.after === null ? parseImage(row.before) : null;
      if (image && image.parent_id !== null && image.parent_id !== undefined) {
        const parent = Number(image.parent_id);
        parts.set(parent, [...(parts.get(parent) ?? []), image]);
      }
    }
  return parts;
}

/** Brings trashed rows back with their parts, category, link and batch; recorded as a change of its own. */
export async function restoreFromTrash(
  em: EntityManager,
  userId: number,
  input: TrashRestoreInput,
): Promise<{ message: string; restored: number }> {
  const ids = [...new Set(input.transactionIds)];
  const result = await em.transactional(async (tem) => {
    const trashed = await trashedByIds(tem, userId, ids);
    const missing = ids.filter((id) => !trashed.has(id));
    if (missing.length > 0)
      throw new AppError(
        'NOT_FOUND',
        `Not in the trash: transaction${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`,
      );
    const recorder = new ChangeRecorder(tem, userId);
    let restored = 0;
    for (const entryId of new Set(trashed.values())) {
      const wanted = ids.filter((id) => trashed.get(id) === entryId);
      restored += await restoreOfEntry(tem, userId, entryId, wanted, recorder);
    }
    const n = ids.length;
    await recorder.finish('trash-restore', `Restored ${n} transaction${n === 1 ? '' : 's'} from the trash`);
    return { message: `Restored ${n} transaction${n === 1 ? '' : 's'} from the trash`, restored };
  });
  await matchSchedulesAfterWrite(em, userId);
  return result;
}

async function trashedByIds(tem: EntityManager, userId: number, ids: readonly number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (let i = 0; i < ids.length; i += 400) {
    const chunk = ids.slice(i, i + 400);
    const rows = await selectRows<{ transaction_id: number; entry_id: number }>(
      tem,
      `select transaction_id, entry_id from trashed_transaction where user_id = ? and transaction_id in (${chunk.map(() => '?').join(', ')})`,
      [userId, ...chunk],
    );
    for (const row of rows) out.set(row.transaction_id, row.entry_id);
  }
  return out;
}

async function restoreOfEntry(
  tem: EntityManager,
  userId: number,
  entryId: number,
  wanted: readonly number[],
  recorder: ChangeRecorder,
): Promise<number> {
  const want = new Set(wanted);
  const rows = await entryRows(tem, userId, entryId);
  const deleted = rows.filter((row) => row.after === null && row.before !== null);
  const images = deleted
    .filter((row) => row.table === 'transaction')
    .map((row) => imageOf(row.before))
    .filter((image) => want.has(Number(image.id)) || want.has(Number(image.parent_id)));
  const batchIds = [
    ...new Set(images.map((image) => image.batch_id).filter((id): id is string => typeof id === 'string')),
  ];
  const present = await readImages(tem, userId, 'batch', batchIds);
  const batches = deleted
    .filter((row) => row.table === 'batch' && batchIds.includes(row.id) && !present.has(row.id))
    .map((row) => imageOf(row.before));
  recorder.created(
    'batch',
    batches.map((image) => String(image.id)),
  );
  recorder.created(
    'transaction',
    images.map((image) => Number(image.id)),
  );
  await refusingMissingReferences(
    () => images.map((image) => `transaction ${String(image.id)}`),
    async () => {
      await insertImages(tem, 'batch', batches);
      await relink(tem, userId, rows, images, recorder);
      await insertImages(
        tem,
        'transaction',
        images.filter((image) => image.parent_id === null || image.parent_id === undefined),
      );
      await insertImages(
        tem,
        'transaction',
        images.filter((image) => image.parent_id !== null && image.parent_id !== undefined),
      );
    },
  );
  await relinkOccurrences(tem, userId, rows, images, recorder);
  await restoreOffers(tem, userId, rows, recorder);
  await untrash(tem, userId, entryId, wanted);
  return images.length;
}

/**
 * An occurrence a restored row was posted for takes it back when it is still as the delete left it (posted, without
 * a row); one changed since (gone with its schedule, say) leaves the row unlinked.
 */
async function relinkOccurrences(
  tem: EntityManager,
  userId: number,
  rows: readonly StoredRow[],
  images: readonly RowImage[],
  recorder: ChangeRecorder,
): Promise<void> {
  const restoring = new Set(images.map((image) => Number(image.id)));
  const links = rows.filter(
    (row) =>
      row.table === 'schedule_occurrence' &&
      row.before !== null &&
      row.after !== null &&
      restoring.has(Number(imageOf(row.before).transaction_id)),
  );
  if (links.length === 0) return;
  const now = await readImages(
    tem,
    userId,
    'schedule_occurrence',
    links.map((row) => row.id),
  );
  for (const row of links) {
    if (imageText(now.get(row.id)) !== row.after) continue;
    const link = imageOf(row.before);
    await recorder.touch('schedule_occurrence', [row.id]);
    await runSql(
      tem,
      'update schedule_occurrence set status = ?, transaction_id = ? where id = ? and user_id = ? and transaction_id is null',
      [link.status, link.transaction_id, link.id, userId],
    );
  }
}

/**
 * The transfer offers the delete took come back (same id, score and reason) when both their rows are there again
 * and the pair is not offered or linked since; the rest stay gone.
 */
async function restoreOffers(
  tem: EntityManager,
  userId: number,
  rows: readonly StoredRow[],
  recorder: ChangeRecorder,
): Promise<void> {
  const offers = rows
    .filter((row) => row.table === 'transfer_candidate' && row.before !== null && row.after === null)
    .map((row) => imageOf(row.before));
  if (offers.length === 0) return;
  const sides = await readImages(tem, userId, 'transaction', [
    ...new Set(offers.flatMap((offer) => [Number(offer.first_id), Number(offer.second_id)])),
  ]);
  const kept: RowImage[] = [];
  for (const offer of offers) {
    const first = sides.get(String(offer.first_id));
    const second = sides.get(String(offer.second_id));
    if (!first || !second) continue;
    if (offer.status === 'open' && (first.transfer_id !== null || second.transfer_id !== null)) continue;
    const [taken] = await selectRows<{ id: number }>(
      tem,
      'select id from transfer_candidate where user_id = ? and (id = ? or (first_id = ? and second_id = ?))',
      [userId, offer.id, offer.first_id, offer.second_id],
    );
    if (!taken) kept.push(offer);
  }
  recorder.created(
    'transfer_candidate',
    kept.map((offer) => Number(offer.id)),
  );
  await insertImages(tem, 'transfer_candidate', kept);
}

/**
 * A restored side of a transfer is linked again when its other side is there and unlinked (or comes back with
 * it): the link's row is put back and the other side names it. Otherwise the row comes back unlinked.
 */
async function relink(
  tem: EntityManager,
  userId: number,
  rows: readonly StoredRow[],
  images: RowImage[],
  recorder: ChangeRecorder,
): Promise<void> {
  const restoring = new Set(images.map((image) => Number(image.id)));
  const links = new Map(
    rows
      .filter((row) => row.table === 'transfer' && row.before !== null && row.after === null)
      .map((row) => [Number(row.id), imageOf(row.before)] as const),
  );
  for (const image of images) {
    const transferId = image.transfer_id;
    if (transferId === null || transferId === undefined) continue;
    const link = links.get(Number(transferId));
    const sides = rows
      .filter((row) => row.table === 'transaction' && row.before !== null)
      .map((row) => imageOf(row.before))
      .filter((side) => side.transfer_id === transferId && Number(side.id) !== Number(image.id));
    const other = sides[0] ? Number(sides[0].id) : null;
    const otherNow = other === null ? null : (await readImages(tem, userId, 'transaction', [other])).get(String(other));
    const otherFree = other !== null && (restoring.has(other) || (otherNow && otherNow.transfer_id === null));
    if (!link || !otherFree) {
      image.transfer_id = null;
      continue;
    }
    links.delete(Number(transferId));
    recorder.created('transfer', [Number(transferId)]);
    await insertImages(tem, 'transfer', [link]);
    if (!restoring.has(other)) {
      await recorder.touch('transaction', [other]);
      await runSql(tem, `update ${TRANSACTION_TABLE} set transfer_id = ? where user_id = ? and id = ?`, [
        transferId,
        userId,
        other,
      ]);
    }
  }
}

/** Deletes everything in the trash for good. */
export async function emptyTrash(em: EntityManager, userId: number): Promise<{ message: string; deleted: number }> {
  return em.transactional(async (tem) => {
    const entries = await selectRows<{ entry_id: number }>(
      tem,
      'select distinct entry_id from trashed_transaction where user_id = ?',
      [userId],
    );
    const deleted = await emptyTrashOf(
      tem,
      userId,
      entries.map((row) => row.entry_id),
    );
    return { message: `Deleted ${deleted} transaction${deleted === 1 ? '' : 's'} for good`, deleted };
  });
}
