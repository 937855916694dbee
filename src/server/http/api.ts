import type { FastifyInstance } from 'fastify';
import { authPublicRest, authRest } from '../modules/auth/auth.rest';
import { requireUser } from './auth';

/**
 * The REST surface under /api. Adapters only parse input with the shared
 * schemas, take the user from the request and call the service layer.
 */
export async function apiRoutes(api: FastifyInstance): Promise<void> {
  await api.register(authPublicRest);

  await api.register(async (secured) => {
    secured.addHook('preHandler', requireUser);
    await secured.register(authRest);
  });
}
