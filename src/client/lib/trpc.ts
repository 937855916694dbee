import { QueryClient } from '@tanstack/react-query';
import { httpBatchLink, httpLink, splitLink, TRPCClientError } from '@trpc/client';
import { createTRPCReact } from '@trpc/react-query';
import type { AppRouter } from '../../server/trpc/router';
import { MAX_BATCH_CALLS } from '../../shared/limits';
import { authFetch } from './authFetch';
import { fieldMessages, readableServerText, withReason } from './serverText';

/** All tRPC and TanStack Query wiring for the client lives here. */
export const trpc = createTRPCReact<AppRouter>();

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => {
          const status = (error as { data?: { httpStatus?: number } | null } | null)?.data?.httpStatus;
          if (status && status >= 400 && status < 500) return false;
          return failureCount < 2;
        },
      },
    },
  });
}

/** Sign-in and profile calls (auth.*) travel alone: the server refuses them inside a batch. */
export function createTrpcClient() {
  return trpc.createClient({
    links: [
      splitLink({
        condition: (op) => op.path.startsWith('auth.'),
        true: httpLink({ url: '/trpc', fetch: authFetch }),
        false: httpBatchLink({ url: '/trpc', fetch: authFetch, maxURLLength: 4000, maxItems: MAX_BATCH_CALLS }),
      }),
    ],
  });
}

/**
 * The server's message for a failed call, or `fallback` ('Failed to ...') when there is
 * none. A failure that never reached the
 * server (network down, a bug) also gives the fallback.
 */
export function serverMessage(error: unknown, fallback: string): string {
  if (error instanceof TRPCClientError && error.data && typeof error.message === 'string' && error.message) {
    return readableServerText(error.message) || fallback;
  }
  return fallback;
}

/** The screen's failure text plus the server's reason when the server refused ("Failed to ...: why"). */
export function refusalMessage(error: unknown, fallback: string): string {
  return withReason(fallback, serverMessage(error, ''));
}

/** A refused form: the server's messages under the fields they name, the rest for an alert. */
export function serverFieldErrors<F extends string>(error: unknown, fields: readonly F[]) {
  if (!isServerError(error)) return { fields: {} as Partial<Record<F, string>>, rest: '' };
  return fieldMessages(error.message, fields);
}

/** True when the error is an answer from our server (as opposed to a network or client fault). */
export function isServerError(error: unknown): error is TRPCClientError<AppRouter> {
  return error instanceof TRPCClientError && Boolean(error.data);
}

export type { AppRouter };
