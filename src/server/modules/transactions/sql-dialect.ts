/**
 * Everything SQLite-specific the reads of transactions rely on, in one place, so a PostgreSQL
 * port changes this file (and the functions it registers) rather than every query:
 * - the quoted table name (`transaction` is a keyword; PostgreSQL quotes with ");
 * - the month of a `YYYY-MM-DD` text date;
 * - fold() and payee_key(): JavaScript functions registered on each SQLite connection
 *   (PostgreSQL: lower(normalize(...)), and a PL/pgSQL function or a stored generated column);
 * - the counted-row rule as SQL.
 * The queries themselves stick to SQL both databases speak (CASE, COALESCE, GROUP BY,
 * sub-selects, LIMIT).
 */
import type BetterSqlite3 from 'better-sqlite3';
import { payeeKey } from '../../../shared/reports/payees';
import { foldText } from '../../../shared/text/fold';

/** The transaction table, quoted. */
export const TRANSACTION_TABLE = '`transaction`';

/**
 * The counted-row rule of src/shared/transactions/counted.ts (split parents never count,
 * their parts do) as a condition on a transaction row alias. A test holds both to the same rows.
 */
export function countedRowSql(alias = 't'): string {
  return `${alias}.is_split = 0`;
}

/** `YYYY-MM` of a `YYYY-MM-DD` date column. */
export function monthSql(column: string): string {
  return `substr(${column}, 1, 7)`;
}

/** Unicode case folding of a text expression (SQLite's lower() folds ASCII only). */
export function foldSql(expression: string): string {
  return `fold(${expression})`;
}

/** The payee key of a description (payeeKey in src/shared/reports/payees.ts). */
export function payeeKeySql(expression: string): string {
  return `payee_key(${expression})`;
}

/** The same descriptions come back again and again (a merchant a week): remember the last ones. */
function memoized(fn: (text: string) => string, size = 20_000): (text: string) => string {
  let cache = new Map<string, string>();
  return (text) => {
    let found = cache.get(text);
    if (found === undefined) {
      found = fn(text);
      if (cache.size >= size) cache = new Map();
      cache.set(text, found);
    }
    return found;
  };
}

/** Registers fold() and payee_key() on a new connection. */
export function registerSqlFunctions(connection: BetterSqlite3.Database): void {
  const key = memoized(payeeKey);
  connection.function('fold', { deterministic: true }, (text: unknown) => (typeof text === 'string' ? foldText(text) : text));
  connection.function('payee_key', { deterministic: true }, (text: unknown) => (typeof text === 'string' ? key(text) : text));
}
