import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../shared/errors';
import { errorBody } from './errors';

/** A request URL without its query string. */
function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

/**
 * Serves the built React app. Any other GET that asks for HTML gets index.html so
 * deep links and reloads work on every route; unknown /api and /trpc paths are
 * JSON 404s, never the page.
 */
export async function registerClient(app: FastifyInstance, clientDir: string): Promise<void> {
  const indexFile = path.join(clientDir, 'index.html');
  const built = existsSync(indexFile);
  if (built) {
    // Source maps would publish the client's source: never served, even if a build left one behind.
    app.addHook('onRequest', async (request, reply) => {
      if (/\.map$/i.test(pathOf(request.url))) {
        return reply
          .status(404)
          .type('application/json; charset=utf-8')
          .send(errorBody(new AppError('NOT_FOUND', 'Not found')));
      }
    });
    await app.register(fastifyStatic, {
      root: clientDir,
      // One route for the folder: a route per built file (hundreds, each with its HEAD twin) stayed in memory for good.
      // A path that is no file goes on to the not-found handler below.
      wildcard: true,
      index: 'index.html',
      // The build writes a .br and a .gz beside each text file: sent as they are to a client that takes them.
      preCompressed: true,
      cacheControl: false,
      setHeaders(res, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
        } else {
          res.setHeader('Cache-Control', 'no-cache');
        }
      },
    });
  } else {
    app.log.warn({ clientDir }, 'client bundle not found; run `npm run build` to serve the app');
  }

  app.setNotFoundHandler((request, reply) => {
    const url = pathOf(request.url);
    const isApi = url === '/api' || url.startsWith('/api/') || url === '/trpc' || url.startsWith('/trpc/');
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !isApi && !path.extname(url);
    if (wantsPage && built) {
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    }
    const error = new AppError('NOT_FOUND', `No such endpoint: ${request.method} ${url}`);
    if (wantsPage) {
      return reply.status(503).type('text/plain; charset=utf-8').send('The client is not built. Run `npm run build`.');
    }
    return reply.status(404).type('application/json; charset=utf-8').send(errorBody(error));
  });
}
