import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import type { FastifyInstance } from 'fastify';
import { MAX_BATCH_CALLS } from '../../shared/limits';
import { errorIdOf } from '../http/logging';
import { createContext } from './context';
import { appRouter, type AppRouter } from './router';

/** The tRPC door at /trpc: the app router, batches bounded, unexpected errors logged with their id. */
export async function registerTrpc(app: FastifyInstance): Promise<void> {
  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      createContext,
      maxBatchSize: MAX_BATCH_CALLS,
      onError({ error, path }) {
        if (error.code === 'INTERNAL_SERVER_ERROR')
          app.log.error({ err: error.cause ?? error, path, errorId: errorIdOf(error) }, 'tRPC error');
      },
    } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
  });
}
