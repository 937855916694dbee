import { ok, type ApiUser } from './api';
import type { TestServer } from './server';

/** A history entry as GET /api/history lists it. */
export type HistoryEntryAnswer = { id: number; kind: string; summary: string; state: string; undoable: boolean };

/** The user's history, newest first (the first 100 entries). */
export async function historyEntries(user: ApiUser): Promise<HistoryEntryAnswer[]> {
  return ok(await user.get<{ entries: HistoryEntryAnswer[] }>('/api/history?limit=100')).entries;
}

/**
 * Every row of the user in each named table, as the database holds them, by id: what an undo must give back
 * exactly. `tables` names each result after its table.
 */
export async function userRows<K extends string>(
  server: TestServer,
  user: ApiUser,
  tables: Record<K, string>,
): Promise<Record<K, Record<string, unknown>[]>> {
  const out = {} as Record<K, Record<string, unknown>[]>;
  for (const [key, table] of Object.entries(tables) as [K, string][])
    out[key] = await server.sql<Record<string, unknown>>(`select * from "${table}" where user_id = ? order by id`, [
      user.userId,
    ]);
  return out;
}
