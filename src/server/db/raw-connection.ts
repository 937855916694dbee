import type { EntityManager } from '@mikro-orm/better-sqlite';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * The better-sqlite3 handle a transaction (`em.transactional`) runs on, for prepared
 * statements in bulk writes. Only valid inside that transaction.
 */
export async function transactionConnection(tem: EntityManager): Promise<BetterSqlite3.Database> {
  const trx = tem.getTransactionContext() as unknown as { client: { acquireConnection: () => Promise<BetterSqlite3.Database> } } | undefined;
  if (!trx) throw new Error('transactionConnection() needs a running transaction');
  return trx.client.acquireConnection();
}
