import { EntitySchema } from '@mikro-orm/core';
import { EntityBase, EntityBaseSchema } from '../../db/base.entity';
import { centsType } from '../../db/cents.type';
import { User } from '../users/user.entity';

/** One action of a user (an edit, a bulk edit, an import...), with the rows it touched in HistoryRow. */
export class HistoryEntry extends EntityBase {
  user!: User;
  kind!: string;
  summary!: string;
  /** `done`, or `undone` after an undo (a redo makes it `done` again). */
  state!: string;
  /** How many rows it touched (an import counts its batch's rows without keeping their images). */
  rowCount!: number;
  /** An import's batch: its rows are not imaged one by one; undo moves the batch to the trash. */
  batchId?: string | null;
}

export const HistoryEntrySchema = new EntitySchema<HistoryEntry, EntityBase>({
  class: HistoryEntry,
  extends: EntityBaseSchema,
  tableName: 'history_entry',
  properties: {
    user: { kind: 'm:1', entity: () => User, deleteRule: 'cascade', index: false },
    kind: { type: 'string', length: 32 },
    summary: { type: 'text' },
    state: { type: 'string', length: 8 },
    rowCount: { type: 'integer' },
    batchId: { type: 'string', length: 64, nullable: true },
  },
  // A user's history newest first, read a page at a time.
  indexes: [{ name: 'history_entry_user_id_index', properties: ['user', 'id'] }],
});

/**
 * A row an entry touched: its table, id and the whole row before and after as JSON (null where it did not exist);
 * rows an action set alike may be kept as one, with the columns set as the after image (history-rows.ts).
 */
export class HistoryRow {
  id!: number;
  user!: User;
  entry!: HistoryEntry;
  tableName!: string;
  rowId!: string;
  before?: string | null;
  after?: string | null;
}

export const HistoryRowSchema = new EntitySchema<HistoryRow>({
  class: HistoryRow,
  tableName: 'history_row',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    user: { kind: 'm:1', entity: () => User, deleteRule: 'cascade', index: false },
    entry: { kind: 'm:1', entity: () => HistoryEntry, deleteRule: 'cascade', index: true },
    tableName: { type: 'string', length: 32 },
    rowId: { type: 'string', length: 64 },
    before: { type: 'text', nullable: true },
    after: { type: 'text', nullable: true },
  },
  // Which later entries touched a row (the undo's conflict check).
  indexes: [{ name: 'history_row_user_table_row_index', properties: ['user', 'tableName', 'rowId'] }],
});

/**
 * A deleted top-level transaction in the trash: what the import's duplicate check compares (so re-importing
 * the file does not bring it back) and the entry whose row images restore it with its parts.
 */
export class TrashedTransaction {
  id!: number;
  user!: User;
  entry!: HistoryEntry;
  transactionId!: number;
  accountId?: number | null;
  postDate!: string;
  amount!: number;
  description!: string;
  fitid?: string | null;
  deletedAt!: string;
}

export const TrashedTransactionSchema = new EntitySchema<TrashedTransaction>({
  class: TrashedTransaction,
  tableName: 'trashed_transaction',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    user: { kind: 'm:1', entity: () => User, deleteRule: 'cascade', index: false },
    entry: { kind: 'm:1', entity: () => HistoryEntry, deleteRule: 'cascade', index: true },
    transactionId: { type: 'integer' },
    // No foreign key: the account may go while its rows wait in the trash.
    accountId: { type: 'integer', nullable: true },
    postDate: { type: 'string', length: 10 },
    amount: { type: centsType },
    description: { type: 'text' },
    fitid: { type: 'string', length: 255, nullable: true },
    deletedAt: { type: 'string', length: 32 },
  },
  indexes: [
    { name: 'trashed_transaction_account_date_index', properties: ['user', 'accountId', 'postDate'] },
    { name: 'trashed_transaction_user_transaction_index', properties: ['user', 'transactionId'] },
  ],
});
