import helmet from '@fastify/helmet';
import fastifyJwt from '@fastify/jwt';
import multipart from '@fastify/multipart';
import Database from 'better-sqlite3';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { AppConfig } from './config/config';
import { registerBackups } from './db/backup-scheduler';
import { databaseAnswers, openDatabase } from './db/database';
import { registerClient } from './http/client';
import { redactAccessToken } from './http/download';
import { registerErrorHandling } from './http/errors';
import { loadSigningSecret } from './http/secret';
import { apiRoutes } from './http/api';
import { createServices } from './services';
import { createContext } from './trpc/context';
import { appRouter, type AppRouter } from './trpc/router';

export interface BuildOptions {
  /** Fastify logger options; defaults to JSON logs at the configured level. */
  logger?: FastifyServerOptions['logger'];
}

/**
 * Builds the whole app (database, security, tRPC, REST, client) without
 * listening, so tests and the entry point share it. Closing the app closes the
 * database.
 */
export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      // Download links may carry the session's access token in the query (see http/download.ts).
      serializers: { req: (req) => ({ method: req.method, url: redactAccessToken(req.url), host: req.host, remoteAddress: req.ip }) },
    },
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    requestTimeout: 5 * 60_000,
    routerOptions: { maxParamLength: 5000, ignoreTrailingSlash: true },
  });

  const orm = await openDatabase(config.databaseFile, (message) => app.log.info(message));
  app.decorate('config', config);
  app.decorate('orm', orm);
  app.addHook('onClose', async () => {
    await orm.close(true);
  });
  registerBackups(app);
  app.decorateRequest('em', null as never);
  app.addHook('onRequest', async (request) => {
    request.em = orm.em.fork();
  });

  registerErrorHandling(app);

  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // MUI (emotion) injects <style> elements at run time; scripts stay strictly external.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // Self-hosters often serve plain HTTP on a LAN; never force https sub-resources there.
    hsts: false,
  });

  await app.register(fastifyJwt, {
    secret: loadSigningSecret(config.dataDir, config.jwtSecret),
    sign: { algorithm: 'HS256', expiresIn: config.accessTokenTtlSeconds },
    verify: { algorithms: ['HS256'] },
  });
  app.decorate(
    'services',
    createServices(config, {
      sign: (claims) => app.jwt.sign(claims),
      verify: (token) => app.jwt.verify(token),
    }),
  );

  await app.register(multipart, { limits: { fileSize: config.uploadLimitBytes, files: 1, fields: 20, fieldSize: 4096 } });

  // Health reads through its own read-only handle (WAL lets it read while an import writes).
  const healthDb = new Database(config.databaseFile, { readonly: true, fileMustExist: true });
  app.addHook('onClose', async () => {
    healthDb.close();
  });
  app.get('/api/health', async (_request, reply) => {
    if (healthAnswers(healthDb) && (await databaseAnswersSoon(orm))) return { status: 'ok' };
    return reply.status(503).send({ status: 'unavailable', error: 'Database is not answering', message: 'Database is not answering' });
  });

  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      createContext,
      onError({ error, path }) {
        if (error.code === 'INTERNAL_SERVER_ERROR') app.log.error({ err: error.cause ?? error, path }, 'tRPC error');
      },
    } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
  });

  await app.register(apiRoutes, { prefix: '/api' });
  await registerClient(app, config.clientDir);
  return app;
}

function healthAnswers(db: Database.Database): boolean {
  try {
    return db.prepare('select 1 as ok').get() !== undefined;
  } catch {
    return false;
  }
}

/** The ORM connection may be busy with a long import; that is not ill health. */
async function databaseAnswersSoon(orm: Parameters<typeof databaseAnswers>[0]): Promise<boolean> {
  const timeout = new Promise<'busy'>((resolve) => setTimeout(() => resolve('busy'), 50).unref());
  const answer = await Promise.race([databaseAnswers(orm), timeout]);
  return answer === 'busy' || answer === true;
}
