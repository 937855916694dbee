/**
 * PostgreSQL's search outside a transaction (the REST search) in one round trip: the count and
 * the rows' JSON in one statement, prepared once per connection (`PREPARE`, run with `EXECUTE`),
 * sent in one message after the row-level security setting, which PostgreSQL runs as one implicit
 * transaction, so the setting holds for the read and ends with it. docs/performance.md tells what
 * this buys.
 */
import type { EntityManager } from '@mikro-orm/knex';
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { must } from '../../../shared/must';
import { withPooledConnection } from '../knex-internals';
import { numberPlaceholders } from '../sql';

/** Most statements prepared on one connection; past them, a statement runs unprepared. */
export const MAX_PREPARED_STATEMENTS = 100;

/** The statements prepared on each connection, by name. */
const preparedOn = new WeakMap<object, Set<string>>();

/** A statement's name: a hash of its text (so one text always has one name). */
function statementName(text: string): string {
  return `bt_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
}

/** The name `text` is prepared under on `connection`, preparing it first; null when the connection holds the most. */
async function preparedName(
  connection: object,
  text: string,
  run: (sql: string) => Promise<unknown>,
): Promise<string | null> {
  const name = statementName(text);
  let prepared = preparedOn.get(connection);
  if (!prepared) preparedOn.set(connection, (prepared = new Set()));
  if (!prepared.has(name)) {
    if (prepared.size >= MAX_PREPARED_STATEMENTS) return null;
    await run(`prepare ${name} as ${text}`);
    prepared.add(name);
  }
  return name;
}

/**
 * The rows of `sql` (`?` placeholders) read for `userId` on a pooled connection in one message:
 * the user's scope and the generic plan (from the first run on, for this implicit transaction only)
 * set, then the prepared statement run with the values written in as the ORM writes them.
 */
export async function scopedPreparedRows<T extends object>(
  em: EntityManager,
  userId: number,
  sql: string,
  params: readonly unknown[],
): Promise<T[]> {
  if (!Number.isSafeInteger(userId)) throw new Error(`scopedPreparedRows: not a user id: ${String(userId)}`);
  const platform = em.getPlatform();
  return withPooledConnection(em, async (connection) => {
    const client = connection as pg.ClientBase;
    const query = async (text: string) => {
      try {
        const results = (await client.query(text)) as pg.QueryResult | pg.QueryResult[];
        return Array.isArray(results) ? must(results.at(-1), 'a query answers a result per statement') : results;
      } catch (error) {
        throw platform.getExceptionConverter().convertException(error as Error);
      }
    };
    const name = await preparedName(client, numberPlaceholders(sql), query);
    const values = params.length > 0 ? `(${params.map(() => '?').join(', ')})` : '';
    const read = name === null ? sql : `execute ${name}${values}`;
    // The id is a safe integer (checked above): the literal holds digits only.
    const scope = `select set_config('app.user_id', '${String(userId)}', true), set_config('plan_cache_mode', 'force_generic_plan', true)`;
    const { rows } = await query(platform.formatQuery(`${scope}; ${read}`, [...params]));
    return rows as T[];
  });
}
