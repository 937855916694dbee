import { reservedCategoryOnTransactionMessage, isReservedCategoryName } from '../../../shared/categories';
import { formatAmountInput } from '../../../shared/money';
import type { TransactionDto, TransactionType } from '../../../shared/schemas/transactions';
import { fieldDigits, readAmountField } from '../../lib/amountField';

/** The Edit Transaction form as typed. */
export interface TransactionDraft {
  postDate: string;
  description: string;
  /** As typed; read with the shared parser in the browser's locale. */
  amount: string;
  category: string;
  account: string;
  /** '' leaves a new transaction's type to its sign. */
  type: TransactionType | '';
}

export type DraftField = 'postDate' | 'description' | 'amount' | 'category' | 'account' | 'type';
export type DraftErrors = Partial<Record<DraftField, string>>;

export const DRAFT_FIELDS: readonly DraftField[] = ['postDate', 'description', 'amount', 'category', 'account', 'type'];

/** A split parent's or part's amount changes only through its split (the server refuses it here). */
export function amountLocked(tx: Pick<TransactionDto, 'isSplit' | 'parentTransactionId'> | null): boolean {
  return Boolean(tx && (tx.isSplit || tx.parentTransactionId !== null));
}

/** Why the amount field of a split row is disabled, and how to change it. */
export function amountLockedText(tx: Pick<TransactionDto, 'isSplit'>): string {
  const what = tx.isSplit ? 'This transaction is split into parts' : 'This is part of a split';
  return `${what}: change its amount by editing the split (select it, Inspect Split, then Edit Split)`;
}

export function draftOf(tx: TransactionDto | null, locale: string): TransactionDraft {
  return {
    postDate: tx?.postDate ?? '',
    description: tx?.description ?? '',
    amount: tx ? formatAmountInput(tx.amount, locale, fieldDigits(tx.currency)) : '',
    category: tx?.category ?? '',
    account: tx?.account ?? '',
    type: tx?.type ?? '',
  };
}

export interface ReadDraft {
  postDate: string;
  description: string;
  amount: number;
  category: string | null;
}

/** Checks the form; every problem is named under its field, and nothing is sent while one remains. */
export function readDraft(
  draft: TransactionDraft,
  locale: string,
  currency: string | null = null,
): { ok: true; value: ReadDraft } | { ok: false; errors: DraftErrors } {
  const errors: DraftErrors = {};
  if (!draft.postDate) errors.postDate = 'Date is required';
  if (!draft.description.trim()) errors.description = 'Description is required';
  const amount = readAmountField(draft.amount, locale, { required: true, currency });
  if (!amount.ok) errors.amount = amount.message;
  if (isReservedCategoryName(draft.category)) errors.category = reservedCategoryOnTransactionMessage(draft.category);
  if (Object.keys(errors).length > 0 || !amount.ok || amount.cents === null) return { ok: false, errors };
  return {
    ok: true,
    value: {
      postDate: draft.postDate,
      description: draft.description.trim(),
      amount: amount.cents,
      category: draft.category.trim() || null,
    },
  };
}

/** 'toIncome' when money out becomes money in, 'toExpense' the other way, else null. */
export function signChange(before: number, after: number): 'toIncome' | 'toExpense' | null {
  if (before < 0 && after > 0) return 'toIncome';
  if (before > 0 && after < 0) return 'toExpense';
  return null;
}

/** The question asked before a save that flips the sign. */
export function signChangeQuestion(
  change: 'toIncome' | 'toExpense',
  before: string,
  after: string,
  type: TransactionType,
): string {
  const head = change === 'toIncome' ? 'This turns an expense into income' : 'This turns income into an expense';
  return `${head}: ${before} becomes ${after}. Its type stays '${type}' unless you change Type.`;
}
