/**
 * The one place that reaches into knex below MikroORM's public API: the driver connection a
 * transaction runs on (for bulk writes and streamed reads, sql.ts). Knex does not document its
 * transaction context's `client.acquireConnection`; tests/unit/knex-internals.test.ts pins the
 * knex version this was written for and fails when it changes, so the next upgrade checks it again.
 */
import type { EntityManager } from '@mikro-orm/knex';

/** The knex version whose internals this file uses. */
export const KNEX_VERSION_WRITTEN_FOR = '3.2.10';

interface KnexTransactionContext {
  client: { acquireConnection: () => Promise<unknown> };
}

/** The driver's connection (better-sqlite3 Database or pg Client) the running transaction of `tem` uses. */
export async function transactionConnection(tem: EntityManager): Promise<unknown> {
  const trx = tem.getTransactionContext<KnexTransactionContext>();
  if (!trx) throw new Error('a driver connection is only handed out inside a transaction');
  return trx.client.acquireConnection();
}
