import { magnitudeBounds } from '../../../shared/money';
import { nameKey } from '../../../shared/names';
import type { CategorySource } from '../../../shared/schemas/suggest';
import type { TransactionFilters } from '../../../shared/schemas/transactions';
import { reportedRowSql } from '../sql';

/**
 * Which of a user's transactions a read takes. Every part is optional and they all hold at once;
 * a search's filters (TransactionFilters) are one.
 */
export interface Selection extends Partial<Omit<TransactionFilters, 'limit' | 'offset'>> {
  accountId?: number;
  batchId?: string;
  /** The parts of one split. */
  parentId?: number;
  ids?: readonly number[];
}

/** The category keys of a selection ('uncategorized' stands for no category). */
export function categoryKeys(selection: Selection): string[] {
  return [...new Set((selection.categories ?? []).map(nameKey))];
}

/** A WHERE clause and its `?` parameters. */
export interface Where {
  sql: string;
  params: unknown[];
}

/** What differs between the databases in a selection's WHERE clause. */
export interface SelectionDialect {
  /** True when `needle` occurs in `haystack` (both already folded). */
  containsSql: (haystack: string, needle: string) => string;
}

function placeholders(values: readonly unknown[]): string {
  return values.map(() => '?').join(', ');
}

/** The category condition: named categories by their key, 'uncategorized' as no category. */
function categoryClause(keys: readonly string[], params: unknown[]): string {
  const named = keys.filter((key) => key !== 'uncategorized');
  const parts: string[] = [];
  if (keys.includes('uncategorized')) parts.push('t.category_id is null');
  if (named.length > 0) {
    parts.push(`c.name_key in (${placeholders(named)})`);
    params.push(...named);
  }
  return parts.join(' or ');
}

/** Conditions on the row's own columns (dates, account, batch, split, ids, amounts, direction, source). */
function columnClauses(selection: Selection, clauses: string[], params: unknown[]): void {
  const add = (clause: string, ...values: unknown[]) => {
    clauses.push(clause);
    params.push(...values);
  };
  if (selection.startDate !== undefined) add('t.post_date >= ?', selection.startDate);
  if (selection.endDate !== undefined) add('t.post_date <= ?', selection.endDate);
  if (selection.accountId !== undefined) add('t.account_id = ?', selection.accountId);
  if (selection.batchId !== undefined) add('t.batch_id = ?', selection.batchId);
  if (selection.parentId !== undefined) add('t.parent_id = ?', selection.parentId);
  if (selection.ids !== undefined) add(`t.id in (${placeholders(selection.ids)})`, ...selection.ids);
  // Bounds are magnitudes: Min -150 and Max -50 find amounts of size 50 to 150, either sign.
  const { minAmount, maxAmount } = magnitudeBounds(selection);
  if (minAmount !== undefined) add('abs(t.amount) >= ?', minAmount);
  if (maxAmount !== undefined) add('abs(t.amount) <= ?', maxAmount);
  if (selection.direction !== undefined) clauses.push(selection.direction === 'in' ? 't.amount > 0' : 't.amount < 0');
  if (selection.counted) clauses.push(reportedRowSql('t'));
  if (selection.categorySource !== undefined)
    add('t.category_source = ? and t.category_id is not null', selection.categorySource satisfies CategorySource);
}

/**
 * The WHERE clause of a selection of the user's rows (over TRANSACTION_FROM's aliases), `payee`
 * already turned into a condition by the dialect (its payee key is computed in JavaScript).
 */
export function selectionWhere(
  dialect: SelectionDialect,
  userId: number,
  selection: Selection,
  payee: Where | null,
): Where {
  const clauses = ['t.user_id = ?'];
  const params: unknown[] = [userId];
  columnClauses(selection, clauses, params);
  const keys = categoryKeys(selection);
  if (keys.length > 0) clauses.push(categoryClause(keys, params));
  if (selection.account) {
    clauses.push('a.name_key = ?');
    params.push(nameKey(selection.account));
  }
  if (selection.description) {
    clauses.push(dialect.containsSql('fold(t.description)', 'fold(?)'));
    params.push(selection.description);
  }
  if (payee) {
    clauses.push(payee.sql);
    params.push(...payee.params);
  }
  return { sql: clauses.map((clause) => `(${clause})`).join(' and '), params };
}
