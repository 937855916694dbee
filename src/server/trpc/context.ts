import type { EntityManager } from '@mikro-orm/better-sqlite';
import type { CreateFastifyContextOptions } from '@trpc/server/adapters/fastify';
import type { AppServices } from '../services';

export interface Context {
  em: EntityManager;
  services: AppServices;
  /** The `Authorization` bearer credential, if any; resolved by protectedProcedure. */
  bearer: string | null;
  clientIp: string;
}

export function bearerFrom(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

export function createContext({ req }: CreateFastifyContextOptions): Context {
  return {
    em: req.em,
    services: req.server.services,
    bearer: bearerFrom(req.headers.authorization),
    clientIp: req.ip,
  };
}
