import type { EntityManager } from '@mikro-orm/knex';
import { TRPCError } from '@trpc/server';
import type { CreateFastifyContextOptions } from '@trpc/server/adapters/fastify';
import { bearerFrom } from '../common/bearer';
import type { AppConfig } from '../config/config';
import type { AppServices } from '../services';
import { MAX_BATCH_CALLS } from '../../shared/limits';

export interface Context {
  em: EntityManager;
  config: AppConfig;
  services: AppServices;
  /** The `Authorization` bearer credential, if any; resolved by protectedProcedure. */
  bearer: string | null;
  clientIp: string;
  /** The User-Agent header (the sign-in list names the device from it). */
  userAgent: string | undefined;
}

/**
 * A batch is one HTTP request holding several calls. Credential checks (every `auth.*`
 * procedure) never share one, so a batch cannot try many passwords in one go; and a batch
 * holds at most MAX_BATCH_CALLS calls.
 */
export function checkBatch(calls: readonly { path: string }[]): void {
  if (calls.length > MAX_BATCH_CALLS) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: `A batch may hold at most ${MAX_BATCH_CALLS} calls` });
  }
  if (calls.length > 1 && calls.some((call) => call.path.startsWith('auth.'))) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: 'Sign-in and profile calls (auth.*) cannot be batched: send each on its own',
    });
  }
}

export function createContext({ req, info }: CreateFastifyContextOptions): Context {
  if (info.isBatchCall) checkBatch(info.calls);
  return {
    em: req.em,
    config: req.server.config,
    services: req.server.services,
    bearer: bearerFrom(req.headers.authorization),
    clientIp: req.ip,
    userAgent: req.headers['user-agent'],
  };
}
