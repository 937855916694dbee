/**
 * The one place that reaches into knex below MikroORM's public API: the driver connection a
 * transaction runs on (for bulk writes and streamed reads, sql.ts), and one from the pool outside
 * any transaction (PostgreSQL's one-round-trip search, transaction-reads/postgres-search.ts). Knex
 * does not document its client's `acquireConnection` and `releaseConnection`;
 * tests/unit/knex-internals.test.ts pins the knex version this was written for and fails when it
 * changes, so the next upgrade checks them again.
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

interface KnexPool {
  acquireConnection: () => Promise<unknown>;
  releaseConnection: (connection: unknown) => Promise<unknown>;
}

/** Runs `work` on a driver connection taken from the ORM's pool (outside any transaction), given back after. */
export async function withPooledConnection<T>(
  em: EntityManager,
  work: (connection: unknown) => Promise<T>,
): Promise<T> {
  const pool = em.getConnection().getKnex().client as KnexPool;
  const connection = await pool.acquireConnection();
  try {
    return await work(connection);
  } finally {
    await pool.releaseConnection(connection);
  }
}
