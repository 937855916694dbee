import type {
  AnyProcedure,
  TRPCRouterRecord as RouterRecord,
  inferProcedureInput,
  inferTransformedProcedureOutput,
} from '@trpc/server';
import type { AppRouter } from '../../src/server/trpc/router';
import { trpc, type TrpcResult } from './http';

/**
 * A typed tRPC client for tests: `api.accounts.create.mutate({ name, type })` instead of a procedure named
 * in a string. Paths, inputs and answers are checked against the server's AppRouter at compile time; the
 * answer is the raw `{ status, data, error }` so a test can assert refusals as well as results.
 * (Deliberately malformed calls, such as fuzzing, use `trpc()` from ./http with a string path.)
 */
type ProcedureCall<P extends AnyProcedure> = P['_def']['type'] extends 'query'
  ? { query: (...input: OptionalInput<P>) => Promise<TrpcResult<inferTransformedProcedureOutput<AppRouter, P>>> }
  : { mutate: (...input: OptionalInput<P>) => Promise<TrpcResult<inferTransformedProcedureOutput<AppRouter, P>>> };

type OptionalInput<P extends AnyProcedure> =
  undefined extends inferProcedureInput<P> ? [input?: inferProcedureInput<P>] : [input: inferProcedureInput<P>];

export type TypedClient<R extends RouterRecord> = {
  [K in keyof R]: R[K] extends AnyProcedure
    ? ProcedureCall<R[K]>
    : R[K] extends RouterRecord
      ? TypedClient<R[K]>
      : never;
};

export type AppClient = TypedClient<AppRouter['_def']['record']>;

function proxy(baseUrl: string, token: string | null | undefined, path: string[], unwrap = false): unknown {
  return new Proxy(() => undefined, {
    get(_target, key) {
      if (typeof key !== 'string') return undefined;
      if (key === 'query' || key === 'mutate') {
        return async (input?: unknown) => {
          const result = await trpc(baseUrl, key === 'query' ? 'query' : 'mutation', path.join('.'), input, token);
          if (!unwrap) return result;
          if (result.error)
            throw new Error(
              `tRPC ${path.join('.')} refused (${result.error.data.httpStatus}): ${result.error.message}`,
            );
          return result.data;
        };
      }
      return proxy(baseUrl, token, [...path, key], unwrap);
    },
  });
}

type DataCall<P extends AnyProcedure> = P['_def']['type'] extends 'query'
  ? { query: (...input: OptionalInput<P>) => Promise<inferTransformedProcedureOutput<AppRouter, P>> }
  : { mutate: (...input: OptionalInput<P>) => Promise<inferTransformedProcedureOutput<AppRouter, P>> };

/** Like TypedClient, but each call answers its data and throws on a refusal (for tests that only set things up). */
export type DataClient<R extends RouterRecord> = {
  [K in keyof R]: R[K] extends AnyProcedure ? DataCall<R[K]> : R[K] extends RouterRecord ? DataClient<R[K]> : never;
};

export type AppDataClient = DataClient<AppRouter['_def']['record']>;

/** The typed client for the server at baseUrl, signed in with token (or anonymous). */
export function trpcClient(baseUrl: string, token?: string | null): AppClient {
  return proxy(baseUrl, token, []) as AppClient;
}

/** The typed client whose calls answer data and throw on a refusal. */
export function trpcDataClient(baseUrl: string, token?: string | null): AppDataClient {
  return proxy(baseUrl, token, [], true) as AppDataClient;
}
