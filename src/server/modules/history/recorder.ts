import type { EntityManager } from '@mikro-orm/knex';
import { imageText, readImages, type ImagedTable, type RowImage } from '../../db/row-images';
import { selectRows, sqlTx, TRANSACTION_TABLE } from '../../db/sql';
import type { HistoryKind } from '../../../shared/schemas/history';
import { HistoryEntry } from './history.entity';
import { insertHistoryRows, setText, type SetRow, type StoredRow } from './history-rows';
import { trashDeletedRows } from './trash';
import { User } from '../users/user.entity';
import { pause } from '../../common/pause';

interface Tracked {
  table: ImagedTable;
  id: string;
  before: RowImage | null;
  /** Columns the action set to these values and nothing else changed: the after image without reading it again. */
  set?: RowImage;
}

/**
 * Records one action of a user as a history entry, inside the action's own transaction: `touch` the rows the
 * action may change before it runs (their images now), `created` the rows it added, then `finish` reads every
 * tracked row again and keeps those that changed. Deleted transactions go to the trash.
 */
export class ChangeRecorder {
  /** By table, then by id (tables in the order first touched, rows in the order touched). */
  private readonly tracked = new Map<ImagedTable, Map<string, Tracked>>();
  /** Whole rows the action itself has just read, so touching them reads nothing again. */
  private readonly read = new Map<ImagedTable, Map<string, RowImage>>();

  constructor(
    private readonly tem: EntityManager,
    private readonly userId: number,
  ) {}

  async touch(table: ImagedTable, ids: readonly (number | string)[]): Promise<void> {
    const tracked = this.trackedOf(table);
    const read = this.read.get(table);
    const fresh = [...new Set(ids.map(String))].filter((id) => !tracked.has(id));
    const unread = read ? fresh.filter((id) => !read.has(id)) : fresh;
    const images = unread.length > 0 ? await readImages(this.tem, this.userId, table, unread) : undefined;
    for (const id of fresh) {
      const before = read?.get(id) ?? images?.get(id) ?? null;
      tracked.set(id, { table, id, before });
    }
  }

  /**
   * Whole rows (`select *`, as readImages reads them) the action read before changing anything: touching them
   * takes these as their before images instead of reading them again.
   */
  readBefore(table: ImagedTable, images: ReadonlyMap<string, RowImage>): void {
    const read = this.read.get(table);
    if (read) for (const [id, image] of images) read.set(id, image);
    else this.read.set(table, new Map(images));
  }

  /**
   * Transactions with everything a change to them may reach: their split families, the transfer links they are
   * in, and the other side of each link.
   */
  async touchTransactions(ids: readonly number[]): Promise<number[]> {
    const read = this.read.get('transaction');
    const reach = await familiesAndLinks(this.tem, this.userId, ids, (id) => read?.get(String(id)));
    await this.touch('transfer', reach.transfers);
    await this.touch('transaction', reach.transactions);
    return reach.transactions;
  }

  /**
   * What deleting these transactions reaches through the database's own cascades: the occurrences they were posted
   * for (their link set to null; they stay posted, so the hourly job does not post them again) and the transfer
   * offers naming them (deleted with them). An expected occurrence they matched is left out: it is open again and
   * matched to the row when it comes back, and the clock may make it missed meanwhile, which would refuse the undo.
   */
  async touchDeleteCascades(ids: readonly number[]): Promise<void> {
    const occurrences: number[] = [];
    const offers: number[] = [];
    for (let i = 0; i < ids.length; i += 400) {
      const chunk = ids.slice(i, i + 400);
      const marks = chunk.map(() => '?').join(', ');
      const linked = await selectRows<{ id: number }>(
        this.tem,
        `select id from schedule_occurrence where user_id = ? and status = 'posted' and transaction_id in (${marks})`,
        [this.userId, ...chunk],
      );
      occurrences.push(...linked.map((row) => row.id));
      const offered = await selectRows<{ id: number }>(
        this.tem,
        `select id from transfer_candidate where user_id = ? and (first_id in (${marks}) or second_id in (${marks}))`,
        [this.userId, ...chunk, ...chunk],
      );
      offers.push(...offered.map((row) => row.id));
    }
    await this.touch('schedule_occurrence', occurrences);
    await this.touch('transfer_candidate', offers);
  }

  /**
   * The action set these columns of these touched rows to `values` in one statement, and nothing else writes
   * them: their after images are their before images with these values, so `finish` does not read them again.
   */
  updated(table: ImagedTable, ids: readonly (number | string)[], values: RowImage): void {
    const ofTable = this.tracked.get(table);
    for (const id of ids) {
      const tracked = ofTable?.get(String(id));
      // One object for the rows of one statement (its text is written once); a second statement's values merge.
      if (tracked?.before) tracked.set = tracked.set ? { ...tracked.set, ...values } : values;
    }
  }

  created(table: ImagedTable, ids: readonly (number | string)[]): void {
    const tracked = this.trackedOf(table);
    for (const id of ids.map(String)) if (!tracked.has(id)) tracked.set(id, { table, id, before: null });
  }

  private trackedOf(table: ImagedTable): Map<string, Tracked> {
    let tracked = this.tracked.get(table);
    if (!tracked) this.tracked.set(table, (tracked = new Map<string, Tracked>()));
    return tracked;
  }

  /** Records an import: its batch, not an image of every row (undo moves the batch's rows out). */
  static async recordImport(
    tem: EntityManager,
    userId: number,
    batchId: string,
    rowCount: number,
    summary: string,
  ): Promise<void> {
    tem.create(HistoryEntry, {
      user: tem.getReference(User, userId),
      kind: 'import',
      summary,
      state: 'done',
      rowCount,
      batchId,
      createdAt: new Date().toISOString(),
    });
    await tem.flush();
  }

  /**
   * Adds to an import's entry rows its transfer detection deleted (the open offers its links settled), so that
   * undoing the import puts them back. What the detection created is imaged at the first undo (see the history's
   * service). Nothing is added when the import has no entry.
   */
  static async recordImportDeleted(
    tem: EntityManager,
    userId: number,
    batchId: string,
    table: ImagedTable,
    images: readonly RowImage[],
  ): Promise<void> {
    if (images.length === 0) return;
    // The import's entry is among the user's newest: read back from the newest by the (user, id) index.
    const [entry] = await selectRows<{ id: number }>(
      tem,
      "select id from history_entry where user_id = ? and kind = 'import' and batch_id = ? order by id desc limit 1",
      [userId, batchId],
    );
    if (!entry) return;
    await insertHistoryRows(
      tem,
      userId,
      entry.id,
      images.map((image) => ({ table, id: String(image.id), before: imageText(image), after: null })),
    );
  }

  /**
   * Records a restore from a backup: the fact, its summary and how many rows it brought, no row images (a backup
   * may hold hundreds of thousands of rows). It cannot be undone (see the history's service).
   */
  static async recordRestore(tem: EntityManager, userId: number, rowCount: number, summary: string): Promise<void> {
    await (
      await sqlTx(tem)
    ).run(
      "insert into history_entry (created_at, user_id, kind, summary, state, row_count) values (?, ?, 'restore', ?, 'done', ?)",
      [new Date().toISOString(), userId, summary, rowCount],
    );
  }

  /** Saves the entry when anything changed; answers its id (null when nothing did). */
  async finish(kind: HistoryKind, summary: string): Promise<number | null> {
    const rows: StoredRow[] = [];
    const setRows: SetRow[] = [];
    for (const [table, tracked] of this.tracked) {
      const ofTable = [...tracked.values()];
      const after = await readImages(
        this.tem,
        this.userId,
        table,
        ofTable.filter((t) => !t.set).map((t) => t.id),
      );
      let compared = 0;
      for (const t of ofTable) {
        if (t.set && t.before) {
          const row = setRow(t, t.before, t.set);
          if (row) setRows.push(row);
          // A row set writes no text of its own: a turn is offered every so many of them, not after each.
          compared += 1;
          if (compared % SET_ROWS_A_PAUSE === 0) await pause();
        } else {
          // Two JSON texts a row: tens of thousands of rows take a while, so other requests get turns between them.
          await pause();
          const row = readRow(t, after.get(t.id));
          if (row) rows.push(row);
        }
      }
    }
    const count = rows.length + setRows.length;
    if (count === 0) return null;
    const entryId = await (
      await sqlTx(this.tem)
    ).insertId(
      "insert into history_entry (created_at, user_id, kind, summary, state, row_count) values (?, ?, ?, ?, 'done', ?)",
      [new Date().toISOString(), this.userId, kind, summary, count],
    );
    await insertHistoryRows(this.tem, this.userId, entryId, rows, setRows);
    await trashDeletedRows(this.tem, this.userId, entryId, rows);
    return entryId;
  }
}

/** A row as read again after the action, when it changed. */
function readRow(t: Tracked, after: RowImage | undefined): StoredRow | null {
  const before = imageText(t.before);
  const now = imageText(after);
  return before === now ? null : { table: t.table, id: t.id, before, after: now };
}

/** A row whose after image is its before image with `set` applied, when that changes a column. */
function setRow(t: Tracked, before: RowImage, set: RowImage): SetRow | null {
  if (Object.keys(set).every((column) => sameValue(before[column], set[column]))) return null;
  let text = setTexts.get(set);
  if (text === undefined) setTexts.set(set, (text = setText(set)));
  return { table: t.table, id: t.id, image: before, after: text };
}

/** The `$set` text of each set of values, written once for all the rows it was set on. */
const setTexts = new WeakMap<RowImage, string>();

/** Rows set compared between two offers of a turn to other requests. */
const SET_ROWS_A_PAUSE = 100;

/** Values JSON writes as themselves, so two of them write the same text exactly when they are equal. */
function plain(value: unknown): boolean {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/** Equal as the images write them (a bigint as its number). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // Most values are plain: comparing them needs no JSON text (two a column of every row a bulk edit set).
  if (plain(a) && plain(b)) return false;
  return imageText({ v: a }) === imageText({ v: b });
}

/**
 * Runs `work` in one database transaction recorded as one history entry of `kind` (none when nothing changed):
 * `work` touches the rows it may change and names those it creates; `summary` describes what it did.
 */
export async function recorded<T>(
  em: EntityManager,
  userId: number,
  kind: HistoryKind,
  work: (tem: EntityManager, recorder: ChangeRecorder) => Promise<T>,
  summary: (result: T) => string,
): Promise<T> {
  return em.transactional(async (tem) => {
    const recorder = new ChangeRecorder(tem, userId);
    const result = await work(tem, recorder);
    await recorder.finish(kind, summary(result));
    return result;
  });
}

interface FamilyRow {
  id: number;
  parent_id: number | null;
  is_split: boolean | number;
  transfer_id: number | null;
}

/** Rows by id (primary key lookups), a few hundred a statement. */
async function rowsById(
  tem: EntityManager,
  userId: number,
  column: 'id' | 'parent_id' | 'transfer_id',
  ids: readonly number[],
) {
  const out: FamilyRow[] = [];
  for (let i = 0; i < ids.length; i += 400) {
    const chunk = ids.slice(i, i + 400);
    out.push(
      ...(await selectRows<FamilyRow>(
        tem,
        `select id, parent_id, is_split, transfer_id from ${TRANSACTION_TABLE}
          where user_id = ? and ${column} in (${chunk.map(() => '?').join(', ')})`,
        [userId, ...chunk],
      )),
    );
  }
  return out;
}

/**
 * The ids with the whole split family of each (a part's parent and siblings, a parent's parts), and with the
 * transfer links they are in and every side of those.
 */
async function familiesAndLinks(
  tem: EntityManager,
  userId: number,
  ids: readonly number[],
  known: (id: number) => RowImage | undefined,
): Promise<{ transactions: number[]; transfers: number[] }> {
  const rows: FamilyRow[] = [];
  const unread: number[] = [];
  for (const id of ids) {
    const image = known(id);
    if (image) rows.push(image as unknown as FamilyRow);
    else unread.push(id);
  }
  rows.push(...(await rowsById(tem, userId, 'id', unread)));
  const parents = new Set<number>();
  for (const row of rows) {
    if (row.parent_id !== null) parents.add(row.parent_id);
    else if (row.is_split) parents.add(row.id);
  }
  const family = [...rows, ...(await rowsById(tem, userId, 'id', [...parents]))];
  family.push(...(await rowsById(tem, userId, 'parent_id', [...parents])));
  const transfers = new Set<number>();
  for (const row of family) if (row.transfer_id !== null) transfers.add(row.transfer_id);
  const sides = await rowsById(tem, userId, 'transfer_id', [...transfers]);
  const transactions = new Set(ids);
  for (const row of family) transactions.add(row.id);
  for (const row of sides) transactions.add(row.id);
  return { transactions: [...transactions], transfers: [...transfers] };
}

/** The ids with the whole split family of each (a part's parent and siblings, a parent's parts). */
export async function withSplitFamilies(tem: EntityManager, userId: number, ids: readonly number[]): Promise<number[]> {
  const rows = await rowsById(tem, userId, 'id', ids);
  const parents = new Set<number>();
  for (const row of rows) {
    if (row.parent_id !== null) parents.add(row.parent_id);
    else if (row.is_split) parents.add(row.id);
  }
  const parts = await rowsById(tem, userId, 'parent_id', [...parents]);
  return [...new Set([...ids, ...parents, ...parts.map((row) => row.id)])];
}
