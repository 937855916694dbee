import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { runSql, withUserScope } from '../../src/server/db/sql';
import { Batch } from '../../src/server/modules/transactions/batch.entity';
import { registerUser, rest, type HttpResult, type TrpcResult } from './http';
import { trpcClient, type AppClient } from './trpc-client';

/** One signed-in user's view of the API: REST and tRPC with its access token. */
export interface ApiUser {
  token: string;
  userId: number;
  username: string;
  /** The password it signed up with (profile changes ask for it as currentPassword). */
  password: string;
  get: <T = any>(path: string) => Promise<HttpResult<T>>;
  post: <T = any>(path: string, body?: unknown) => Promise<HttpResult<T>>;
  put: <T = any>(path: string, body?: unknown) => Promise<HttpResult<T>>;
  del: <T = any>(path: string) => Promise<HttpResult<T>>;
  /** Typed tRPC calls: `user.trpc.accounts.create.mutate({...})` answers `{ status, data, error }`. */
  trpc: AppClient;
}

export async function signUp(baseUrl: string): Promise<ApiUser> {
  const auth = await registerUser(baseUrl);
  const token = auth.accessToken;
  return {
    token,
    userId: auth.user.id,
    username: auth.user.username,
    password: auth.password,
    get: (path) => rest(baseUrl, 'GET', path, { token }),
    post: (path, body) => rest(baseUrl, 'POST', path, { token, body }),
    put: (path, body) => rest(baseUrl, 'PUT', path, { token, body }),
    del: (path) => rest(baseUrl, 'DELETE', path, { token }),
    trpc: trpcClient(baseUrl, token),
  };
}

/** Expects a 2xx and answers the body, with the failure in the message otherwise. */
export function ok<T>(res: HttpResult<T>): T {
  if (res.status < 200 || res.status >= 300)
    throw new Error(`expected 2xx, got ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export function data<T>(res: TrpcResult<T>): T {
  if (res.error) throw new Error(`tRPC error ${res.error.data.httpStatus}: ${res.error.message}`);
  return res.data as T;
}

/** Stores a batch for the user directly, as an import would (for tests of batch routes). */
export async function seedBatch(
  app: FastifyInstance,
  userId: number,
  accountId: number | null,
  transactionIds: number[],
  uploadDate = new Date().toISOString(),
): Promise<string> {
  const id = randomUUID();
  // In the user's scope, as the app writes (row-level security on PostgreSQL).
  await withUserScope(app.orm.em.fork(), userId, async (em) => {
    em.create(Batch, {
      id,
      user: userId,
      account: accountId,
      uploadDate,
      transactionCount: transactionIds.length,
      fileName: 'seed.csv',
      dateFormat: 'YYYY-MM-DD',
    });
    await em.flush();
    if (transactionIds.length > 0) {
      await runSql(
        em,
        `update "transaction" set batch_id = ? where user_id = ? and id in (${transactionIds.map(() => '?').join(',')})`,
        [id, userId, ...transactionIds],
      );
    }
  });
  return id;
}
