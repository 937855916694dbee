import type { CategorySource } from '../../../shared/schemas/suggest';
import type { TransactionDto, TransactionType } from '../../../shared/schemas/transactions';

/** The columns every transaction read selects, joined with its account and category names. */
export const TRANSACTION_COLUMNS = `t.id, t.post_date, t.description, t.amount, t.type, t.is_split, t.parent_id,
  t.split_note, t.batch_id, t.account_id, a.name as account_name, c.name as category_name, t.category_source`;

export const TRANSACTION_FROM = `"transaction" t
  left join account a on a.id = t.account_id
  left join category c on c.id = t.category_id`;

export interface TransactionRow {
  id: number;
  post_date: string;
  description: string;
  amount: number;
  type: string;
  is_split: number | boolean;
  parent_id: number | null;
  split_note: string | null;
  batch_id: string | null;
  account_id: number | null;
  account_name: string | null;
  category_name: string | null;
  category_source: string | null;
}

export function toTransactionDto(row: TransactionRow): TransactionDto {
  return {
    id: row.id,
    postDate: row.post_date,
    description: row.description,
    amount: row.amount,
    account: row.account_name,
    bank_account_id: row.account_id,
    category: row.category_name,
    // A source without a category (a category deleted since) says nothing.
    categorySource: row.category_name === null ? null : ((row.category_source as CategorySource | null) ?? null),
    type: row.type as TransactionType,
    isSplit: Boolean(row.is_split),
    parentTransactionId: row.parent_id,
    splitNote: row.split_note,
    batchId: row.batch_id,
  };
}
