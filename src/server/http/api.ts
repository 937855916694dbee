import type { FastifyInstance } from 'fastify';
import { authPublicRest, authRest } from '../modules/auth/auth.rest';
import { importRest } from '../modules/import/import.rest';
import { requireUser } from './auth';
import { domainRoutes } from './domain-routes';
import { openApiDocument } from './openapi';
import { registerRestRoutes } from './rest-route';

/**
 * The REST surface under /api. Adapters only parse input with the shared
 * schemas, take the user from the request and call the service layer.
 */
export async function apiRoutes(api: FastifyInstance): Promise<void> {
  await api.register(authPublicRest);

  const document = openApiDocument();
  api.get('/openapi.json', () => document);

  await api.register(async (secured) => {
    secured.addHook('preHandler', requireUser);
    await secured.register(authRest);
    registerRestRoutes(secured, domainRoutes);
    await secured.register(importRest);
  });
}
