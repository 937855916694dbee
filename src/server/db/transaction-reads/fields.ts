/**
 * The one list of a transaction answer's fields. Every read of transactions selects these columns
 * (named as the answer's keys, so a driver row is already the answer's shape), and the JSON the
 * databases write is built from the same list. The compiler holds the list to the answer schema's keys.
 */
import { transactionAnswerSchema, type TransactionDto } from '../../../shared/schemas/transactions';
import { counterpartOnBudgetSql } from '../sql';

/** How the database writes a field's value as JSON. */
export type JsonKind =
  /** A whole number or null. */
  | 'integer'
  /** Any text: quoted and escaped. */
  | 'text'
  /** Text the app writes from a fixed alphabet (dates, enum words, UUIDs): quoted, never needs escaping. */
  | 'word'
  /** A boolean column (0/1 on SQLite). */
  | 'boolean';

export interface TransactionField {
  /** The value, over the aliases of TRANSACTION_FROM: t (transaction), a (account), c (category). */
  sql: string;
  json: JsonKind;
  /** The value is never null (a column declared not null): its JSON needs no null check. */
  notNull?: true;
  /** The value's JSON on a row without a transfer link, which `sql` answers for such a row whatever the rest. */
  unlinked?: 'null' | 'false';
}

/** A column of the other side of a linked row `t` (a transfer has exactly two sides). */
const counterpart = (column: string) =>
  `select tp.${column} from "transaction" tp where tp.transfer_id = t.transfer_id and tp.id <> t.id`;

export const TRANSACTION_FIELDS = {
  id: { sql: 't.id', json: 'integer', notNull: true },
  postDate: { sql: 't.post_date', json: 'word', notNull: true },
  description: { sql: 't.description', json: 'text' },
  amount: { sql: 't.amount', json: 'integer', notNull: true },
  currency: { sql: 'a.currency', json: 'word' },
  originalAmount: { sql: 't.original_amount', json: 'integer' },
  originalCurrency: { sql: 't.original_currency', json: 'word' },
  account: { sql: 'a.name', json: 'text' },
  bank_account_id: { sql: 't.account_id', json: 'integer' },
  category: { sql: 'c.name', json: 'text' },
  // A source without a category (a category deleted since) says nothing.
  categorySource: { sql: 'case when c.name is null then null else t.category_source end', json: 'word' },
  type: { sql: 't.type', json: 'word', notNull: true },
  isSplit: { sql: 't.is_split', json: 'boolean' },
  parentTransactionId: { sql: 't.parent_id', json: 'integer' },
  splitNote: { sql: 't.split_note', json: 'text' },
  memo: { sql: 't.memo', json: 'text' },
  cleared: { sql: 't.cleared', json: 'word', notNull: true },
  batchId: { sql: 't.batch_id', json: 'word' },
  transferId: { sql: 't.transfer_id', json: 'integer', unlinked: 'null' },
  // Looked up only for a linked row: an unlinked one (most rows) costs no probe at all.
  transferCounterpartId: {
    sql: `case when t.transfer_id is null then null else (${counterpart('id')}) end`,
    json: 'integer',
    unlinked: 'null',
  },
  transferCounterpartAccount: {
    sql: `case when t.transfer_id is null then null else (select ta.name from account ta where ta.id = (${counterpart('account_id')})) end`,
    json: 'text',
    unlinked: 'null',
  },
  accountOnBudget: { sql: 'coalesce(a.on_budget, false)', json: 'boolean' },
  transferCounterpartOnBudget: {
    sql: `case when t.transfer_id is null then false else ${counterpartOnBudgetSql('t')} end`,
    json: 'boolean',
    unlinked: 'false',
  },
} as const satisfies { readonly [K in keyof TransactionDto]-?: TransactionField };

type FieldKey = keyof typeof TRANSACTION_FIELDS;

/** The fields in the answer schema's key order (the order JSON answers list them in). */
const FIELD_KEYS = Object.keys(transactionAnswerSchema.shape) as FieldKey[];

/** The transaction table with the account and category a row names. */
export const TRANSACTION_FROM = `"transaction" t
  left join account a on a.id = t.account_id
  left join category c on c.id = t.category_id`;

/** A select list of some of the fields, each column named as its key. */
export function selectOf(keys: readonly FieldKey[]): string {
  return keys.map((key) => `${TRANSACTION_FIELDS[key].sql} as "${key}"`).join(', ');
}

/** The select list of a transaction answer. */
export const TRANSACTION_SELECT = selectOf(FIELD_KEYS);

const BOOLEAN_KEYS = FIELD_KEYS.filter((key) => TRANSACTION_FIELDS[key].json === 'boolean');

/** A row of TRANSACTION_SELECT as the answer: booleans read as booleans (SQLite answers 0 and 1). */
export function toTransactionDto<T extends object>(row: T): T & TransactionDto {
  const fields = row as Record<string, unknown>;
  for (const key of BOOLEAN_KEYS) fields[key] = Boolean(fields[key]);
  return row as T & TransactionDto;
}

/** A JSON writer of one dialect: a value of `kind` in `expression` as the JSON text of it. */
export type JsonValueSql = (kind: JsonKind, expression: string) => string;

/**
 * One slot of a row's JSON template: the text written for the value around `%s`, and the expression
 * format() puts there. A value that is never null is put in as it is (a word between quotes), with
 * no null check or conversion of its own.
 */
function slotOf(json: JsonValueSql, field: TransactionField, expression: string): readonly [string, string] {
  if (field.notNull && field.json === 'integer') return ['%s', expression];
  if (field.notNull && field.json === 'word') return ['"%s"', expression];
  return ['%s', json(field.json, expression)];
}

/** A JSON object's fields: its key, then either its constant JSON text or its template slot. */
type ObjectPart = readonly [key: string, value: { text: string } | readonly [string, string]];

/**
 * A JSON object as one format() call (plain identifiers as keys, in the order given): the database
 * writes the row into one buffer, where a chain of `||` copied the growing text once per field.
 */
function formatObjectSql(parts: readonly ObjectPart[]): string {
  const args: string[] = [];
  const template = parts.map(([key, value]) => {
    if ('text' in value) return `"${key}":${value.text}`;
    args.push(value[1]);
    return `"${key}":${value[0]}`;
  });
  return `format('{${template.join(',')}}', ${args.join(', ')})`;
}

/** An extra field after the transaction's own: its key, and the JSON text expression of its value (no parameters). */
export type ExtraJsonField = readonly [string, string];

/** The plain row JSON of each dialect, written once: every search and overview reads with it. */
const plainRowJson = new Map<JsonValueSql, string>();

/**
 * One transaction's JSON as the database writes it, from a row of TRANSACTION_SELECT aliased `s`:
 * exactly the answer's fields in its order, then `extra`. A row without a transfer link (most rows)
 * has its transfer fields written as constants in its own template, their lookups never made.
 */
export function transactionJsonSql(json: JsonValueSql, extra: readonly ExtraJsonField[] = []): string {
  if (extra.length > 0) return rowJsonSql(json, extra);
  let kept = plainRowJson.get(json);
  if (kept === undefined) plainRowJson.set(json, (kept = rowJsonSql(json, [])));
  return kept;
}

function rowJsonSql(json: JsonValueSql, extra: readonly ExtraJsonField[]): string {
  const extras = extra.map(([key, value]) => [key, ['%s', value] as const] as const);
  const object = (linked: boolean) =>
    formatObjectSql([
      ...FIELD_KEYS.map((key): ObjectPart => {
        const field: TransactionField = TRANSACTION_FIELDS[key];
        if (!linked && field.unlinked) return [key, { text: field.unlinked }];
        return [key, slotOf(json, field, `s."${key}"`)];
      }),
      ...extras,
    ]);
  return `case when s."transferId" is null then ${object(false)} else ${object(true)} end`;
}
