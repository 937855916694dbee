import type { FastifyInstance } from 'fastify';
import { requireUser } from './auth';
import { openApiDocument, restRoutes } from './openapi';
import { registerRestRoutes } from './rest-route';

/**
 * The REST surface under /api, from one route list (auth, the domain routes, the upload).
 * Adapters only parse input with the shared schemas, take the user from the request and call
 * the service layer; routes that are not public sign the caller in first.
 */
export async function apiRoutes(api: FastifyInstance): Promise<void> {
  registerRestRoutes(
    api,
    restRoutes.filter((route) => route.public),
  );

  // Built on first request, so start-up neither spends the time nor keeps the document resident.
  let document: Record<string, unknown> | null = null;
  api.get('/openapi.json', () => (document ??= openApiDocument()));

  await api.register((secured, _options, done) => {
    secured.addHook('preHandler', requireUser);
    registerRestRoutes(
      secured,
      restRoutes.filter((route) => !route.public),
    );
    done();
  });
}
