import { EntitySchema, type Opt } from '@mikro-orm/core';
import { EntityBase, EntityBaseSchema } from '../../db/base.entity';
import { centsType } from '../../db/cents.type';
import { Account } from '../accounts/account.entity';
import { Category } from '../categories/category.entity';
import type { CategorySource } from '../../../shared/schemas/suggest';
import type { ClearedState } from '../../../shared/schemas/transactions';
import { User } from '../users/user.entity';
import { Batch } from './batch.entity';
import { Transfer } from '../transfers/transfer.entity';

export class Transaction extends EntityBase {
  user!: User;
  account?: Account | null;
  category?: Category | null;
  /** Where the category came from: bank, rule, suggested or user; null when uncategorised or set before this was kept. */
  categorySource?: CategorySource | null;
  /** Calendar date `YYYY-MM-DD`. */
  postDate!: string;
  description!: string;
  /** The bank's text when a rule renamed the row (on import or applied later); duplicate detection compares it. */
  bankDescription?: string | null;
  /** Integer minor units of the account's currency; negative is money out. */
  amount!: number;
  /** What was paid in another currency (a card payment abroad), in that currency's minor units, signed like `amount`. */
  originalAmount?: number | null;
  /** ISO 4217 code of `originalAmount`. */
  originalCurrency?: string | null;
  type!: string;
  /** True on a parent that was split; its children carry `parent`. */
  isSplit!: boolean;
  parent?: Transaction | null;
  splitNote?: string | null;
  /** The person's own note on the row. */
  memo?: string | null;
  /** uncleared, cleared (seen on the bank's side) or reconciled (agreed with a statement). */
  cleared!: ClearedState & Opt;
  batch?: Batch | null;
  /** The bank's own id of an imported statement row (OFX FITID, CAMT AcctSvcrRef), for duplicate detection. */
  fitid?: string | null;
  /** The link to the other side of a transfer (src/server/modules/transfers); null when unlinked. */
  transfer?: Transfer | null;
}

/** The partial index of split parts, in SQL both databases take (the migrations write the same). */
const PARENT_INDEX_SQL =
  'create index "transaction_parent_id_partial_index" on "transaction" ("parent_id") where "parent_id" is not null';
/** The partial index of linked rows: most rows are no transfer's side, so imports add nothing to it. */
const TRANSFER_INDEX_SQL =
  'create index "transaction_transfer_id_partial_index" on "transaction" ("transfer_id") where "transfer_id" is not null';

export const TransactionSchema = new EntitySchema<Transaction, EntityBase>({
  class: Transaction,
  extends: EntityBaseSchema,
  tableName: 'transaction',
  properties: {
    // No single-column indexes on user, account and category: the composite indexes below start
    // with user and account and serve the same lookups, every lookup by category is one user's
    // (the user's covering index holds category), and every index slows every import.
    user: { kind: 'm:1', entity: () => User, deleteRule: 'cascade', index: false },
    account: { kind: 'm:1', entity: () => Account, nullable: true, deleteRule: 'restrict', index: false },
    category: { kind: 'm:1', entity: () => Category, nullable: true, deleteRule: 'set null', index: false },
    categorySource: { type: 'string', length: 16, nullable: true },
    postDate: { type: 'string', length: 10 },
    description: { type: 'text' },
    bankDescription: { type: 'text', nullable: true },
    amount: { type: centsType },
    originalAmount: { type: centsType, nullable: true },
    originalCurrency: { type: 'string', length: 3, nullable: true },
    type: { type: 'string', length: 16 },
    isSplit: { type: 'boolean', default: false },
    // Indexed below, partially: only split parts have a parent.
    parent: { kind: 'm:1', entity: () => Transaction, nullable: true, deleteRule: 'cascade', index: false },
    splitNote: { type: 'text', nullable: true },
    memo: { type: 'text', nullable: true },
    cleared: { type: 'string', length: 16, default: 'uncleared' },
    batch: { kind: 'm:1', entity: () => Batch, nullable: true, deleteRule: 'cascade', index: true },
    fitid: { type: 'string', length: 255, nullable: true },
    // Indexed below, partially: only a transfer's two sides carry it.
    transfer: { kind: 'm:1', entity: () => Transfer, nullable: true, deleteRule: 'set null', index: false },
  },
  indexes: [
    // Serves every dated search of a user, and covers the monthly report (grouped by date and
    // category over counted rows, optionally one account) without reading the table.
    {
      name: 'transaction_user_post_date_covering_index',
      properties: ['user', 'postDate', 'category', 'isSplit', 'amount', 'account'],
    },
    // Duplicate detection on import (account, date, amount), and an account register's sum of the
    // counted rows after a date, read from the index alone.
    {
      name: 'transaction_account_post_date_amount_split_index',
      properties: ['account', 'postDate', 'amount', 'isSplit'],
    },
    // Split parts by their parent (a split's family, deletes, the parent's cascade). Partial: only
    // parts have a parent, so the rows of an import (never parts) add nothing to it. Every lookup
    // compares parent_id with a value, which implies "is not null", so both databases use it.
    {
      name: 'transaction_parent_id_partial_index',
      properties: ['parent'],
      expression: PARENT_INDEX_SQL,
    },
    // A transfer's sides by its id (the counterpart in every answer, unlinking, the link's set null).
    {
      name: 'transaction_transfer_id_partial_index',
      properties: ['transfer'],
      expression: TRANSFER_INDEX_SQL,
    },
  ],
});
