import helmet from '@fastify/helmet';
import fastifyJwt from '@fastify/jwt';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import Database from 'better-sqlite3';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { Writable } from 'node:stream';
import { AppError } from '../shared/errors';
import { describeDatabase, type AppConfig, type TrustProxy } from './config/config';
import { registerBackups } from './db/backup-scheduler';
import { databaseAnswers, openDatabase } from './db/database';
import { databaseTarget } from './db/orm-options';
import {
  databaseFiles,
  preparePrivateStorage,
  probeDatabaseWrite,
  StorageError,
  tightenFiles,
  usePrivateUmask,
  type WriteProbe,
} from './db/storage';
import { registerClient } from './http/client';
import { registerCompression } from './http/compression';
import { registerErrorHandling } from './http/errors';
import { errorIdOf, loggerOptions } from './http/logging';
import { loadSigningSecret } from './http/secret';
import { apiRoutes } from './http/api';
import { looksLikeAccessToken } from './modules/auth/auth.service';
import { sha256Hex } from './modules/auth/crypto';
import { createServices } from './services';
import { fixedClock, systemClock, type Clock } from './common/clock';
import { registerScheduleJob } from './modules/schedules/schedule-job';
import { bearerFrom } from './common/bearer';
import { MAX_BATCH_CALLS } from '../shared/limits';
import { createContext } from './trpc/context';
import { registerRawJsonSplice } from './trpc/raw-json';
import { appRouter, type AppRouter } from './trpc/router';
import { closeCheckpointer } from './db/wal-checkpoint';
import { closeSqliteReader } from './db/read-worker';

export interface BuildOptions {
  /** Fastify logger options; defaults to JSON logs at the configured level (redacted). */
  logger?: FastifyServerOptions['logger'];
  /** Where the default logger writes (tests read the log lines from it); stdout otherwise. */
  logStream?: Writable;
  /** What the server takes as today (tests move it); CLOCK_TODAY or the local date otherwise. */
  clock?: Clock;
}

/**
 * Fastify's `trustProxy`: a number of hops becomes "trust the first n addresses from the
 * socket", so the client is the right-most X-Forwarded-For entry that is not a proxy
 * (Fastify's own number option trusts no X-Forwarded-Proto); addresses are trusted as listed.
 */
export function trustProxyOption(trust: TrustProxy): FastifyServerOptions['trustProxy'] {
  if (trust === false) return false;
  if (typeof trust === 'number') return (_address: string, hop: number) => hop < trust;
  return trust;
}

/** The API token a request presents (hashed), or null for none / a browser session's access token. */
function apiTokenKey(request: FastifyRequest): string | null {
  const bearer = bearerFrom(request.headers.authorization);
  if (!bearer || looksLikeAccessToken(bearer)) return null;
  return sha256Hex(bearer);
}

const HSTS = 'max-age=31536000';

/**
 * Builds the whole app (database, security, tRPC, REST, client) without
 * listening, so tests and the entry point share it. Closing the app closes the
 * database.
 */
export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  usePrivateUmask();
  const target = databaseTarget(config);
  const onSqlite = target.dialect === 'sqlite';
  // The data folder holds the signing secret on either database; the SQLite file only without DATABASE_URL.
  preparePrivateStorage(config.dataDir, onSqlite ? config.databaseFile : null);

  const app = Fastify({
    logger: options.logger ?? loggerOptions(config, options.logStream),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: trustProxyOption(config.trustProxy),
    requestTimeout: 5 * 60_000,
    routerOptions: { maxParamLength: 5000, ignoreTrailingSlash: true },
  });

  app.log.info({ database: describeDatabase(config) }, `database: ${describeDatabase(config)}`);
  const orm = await openDatabase(target, (message) => app.log.info(message));
  try {
    if (onSqlite) {
      tightenFiles(databaseFiles(config.databaseFile));
      const probe = probeDatabaseWrite(config.databaseFile);
      if (!probe.ok) throw new StorageError(probe.reason);
    }
  } catch (error) {
    await orm.close(true);
    throw error;
  }
  app.decorate('config', config);
  app.decorate('orm', orm);
  app.addHook('onClose', async () => {
    await orm.close(true);
    // The import's checkpoint worker holds a connection to the file too.
    if (onSqlite) await closeCheckpointer(config.databaseFile);
    // So do the search's reader threads (read-worker.ts).
    if (onSqlite) await closeSqliteReader(config.databaseFile);
  });
  // Scheduled backups copy the SQLite file; PostgreSQL is backed up with its own tools (pg_dump).
  if (onSqlite) registerBackups(app);
  app.decorateRequest('em', null as never);
  app.addHook('onRequest', (request, _reply, done) => {
    request.em = orm.em.fork();
    done();
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
    // Self-hosters often serve plain HTTP on a LAN: HSTS only on answers that went out over HTTPS (below).
    hsts: false,
  });
  // request.protocol is https for TLS, or when a trusted proxy says so in X-Forwarded-Proto.
  app.addHook('onRequest', async (request, reply) => {
    if (request.protocol === 'https') reply.header('Strict-Transport-Security', HSTS);
  });

  // Per-API-token request limit; the browser's session (access tokens) and /api/health are exempt.
  await app.register(rateLimit, {
    global: true,
    max: config.apiTokenRateLimit,
    timeWindow: 60_000,
    keyGenerator: (request) => apiTokenKey(request) ?? 'none',
    allowList: (request) => request.url.split('?')[0] === '/api/health' || apiTokenKey(request) === null,
    errorResponseBuilder: (_request, context) =>
      new AppError(
        'TOO_MANY_REQUESTS',
        `Too many requests with this API token (at most ${context.max} a minute). Try again in ${context.after}.`,
        {
          retryAfterSeconds: Math.max(1, Math.ceil(context.ttl / 1000)),
        },
      ),
  });

  await app.register(fastifyJwt, {
    secret: loadSigningSecret(config.dataDir, config.jwtSecret),
    sign: { algorithm: 'HS256', expiresIn: config.accessTokenTtlSeconds },
    verify: { algorithms: ['HS256'] },
  });
  const clock = options.clock ?? (config.clockToday ? fixedClock(config.clockToday) : systemClock);
  app.decorate(
    'services',
    createServices(
      config,
      {
        sign: (claims) => app.jwt.sign(claims),
        verify: (token) => app.jwt.verify(token),
      },
      orm,
      clock,
    ),
  );
  registerScheduleJob(app, clock);

  registerRawJsonSplice(app);
  registerCompression(app);
  await app.register(multipart, {
    limits: { fileSize: config.uploadLimitBytes, files: 1, fields: 20, fieldSize: 4096 },
  });

  // Health reads through its own read-only handle (WAL lets it read while an import writes), and
  // probes writing (at most once a second) on a fresh handle, so a database that became
  // unwritable since start is reported.
  // On PostgreSQL the pool answers health checks (and a read-only or full server fails the writes themselves).
  const healthDb = onSqlite ? new Database(config.databaseFile, { readonly: true, fileMustExist: true }) : null;
  app.addHook('onClose', (_instance, done) => {
    healthDb?.close();
    done();
  });
  let lastProbe: { at: number; result: WriteProbe } | null = null;
  const writeProbe = (): WriteProbe => {
    if (!onSqlite) return { ok: true };
    const now = Date.now();
    if (!lastProbe || now - lastProbe.at >= 1000)
      lastProbe = { at: now, result: probeDatabaseWrite(config.databaseFile) };
    return lastProbe.result;
  };
  app.get('/api/health', async (_request, reply) => {
    if ((healthDb && !healthAnswers(healthDb)) || !(await databaseAnswersSoon(orm, onSqlite ? 50 : 1000))) {
      return reply.status(503).send({
        status: 'unavailable',
        reason: 'Database is not answering',
        error: 'Database is not answering',
        message: 'Database is not answering',
      });
    }
    const probe = writeProbe();
    if (!probe.ok) {
      app.log.error({ reason: probe.reason }, 'health: database not writable');
      return reply.status(503).send({ status: 'degraded', reason: probe.reason });
    }
    return { status: 'ok' };
  });

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
async function databaseAnswersSoon(orm: Parameters<typeof databaseAnswers>[0], waitMs: number): Promise<boolean> {
  const timeout = new Promise<'busy'>((resolve) => setTimeout(() => resolve('busy'), waitMs).unref());
  const answer = await Promise.race([databaseAnswers(orm), timeout]);
  return answer === 'busy' || answer;
}
