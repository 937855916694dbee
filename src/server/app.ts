import fastifyJwt from '@fastify/jwt';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Writable } from 'node:stream';
import type { AppConfig } from './config/config';
import { openAppDatabase } from './db/app-database';
import { registerBackups } from './db/backup-scheduler';
import { usePrivateUmask } from './db/storage';
import { apiRoutes } from './http/api';
import { registerClient } from './http/client';
import { registerCompression } from './http/compression';
import { registerErrorHandling } from './http/errors';
import { registerHealth } from './http/health';
import { loggerOptions } from './http/logging';
import { loadSigningSecret } from './http/secret';
import { registerApiTokenLimit, registerSecurityHeaders, trustProxyOption } from './http/security';
import { createServices, type PasswordFunctions, type TokenSigner } from './services';
import { fixedClock, systemClock, type Clock } from './common/clock';
import { registerScheduleJob } from './modules/schedules/schedule-job';
import { registerTrpc } from './trpc/plugin';

export interface BuildOptions {
  /** Fastify logger options; defaults to JSON logs at the configured level (redacted). */
  logger?: FastifyServerOptions['logger'];
  /** Where the default logger writes (tests read the log lines from it); stdout otherwise. */
  logStream?: Writable;
  /** What the server takes as today (tests move it); CLOCK_TODAY or the local date otherwise. */
  clock?: Clock;
  /** The password hash functions (tests count the calls); crypto's otherwise. */
  passwords?: PasswordFunctions;
}

/** Builds the whole app (database, security, tRPC, REST, client) without listening; closing it closes the database. */
export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  usePrivateUmask();
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config, options.logStream),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: trustProxyOption(config.trustProxy),
    requestTimeout: 5 * 60_000,
    routerOptions: { maxParamLength: 5000, ignoreTrailingSlash: true },
  });
  const database = await openAppDatabase(
    config,
    (message, fields) => app.log.info(fields ?? {}, message),
    (message, fields) => app.log.warn(fields ?? {}, message),
  );
  app.decorate('config', config);
  app.decorate('orm', database.orm);
  app.addHook('onClose', () => database.close());
  if (database.backupFile !== null) registerBackups(app);
  app.decorateRequest('em', null as never);
  app.addHook('onRequest', (request, _reply, done) => {
    request.em = database.orm.em.fork();
    done();
  });
  registerErrorHandling(app);
  registerSecurityHeaders(app);
  await registerApiTokenLimit(app, config);
  await app.register(fastifyJwt, {
    secret: loadSigningSecret(config.dataDir, config.jwtSecret),
    sign: { algorithm: 'HS256', expiresIn: config.accessTokenTtlSeconds },
    verify: { algorithms: ['HS256'] },
  });
  const tokens: TokenSigner = {
    sign: (claims) => app.jwt.sign(claims),
    signFor: (claims, seconds) => app.jwt.sign(claims, { expiresIn: seconds }),
    verify: (token) => app.jwt.verify(token),
  };
  const clock = options.clock ?? (config.clockToday ? fixedClock(config.clockToday) : systemClock);
  app.decorate('services', createServices(config, tokens, database.orm, clock, options.passwords));
  registerScheduleJob(app, clock);
  registerCompression(app);
  await app.register(multipart, {
    limits: { fileSize: config.uploadLimitBytes, files: 1, fields: 20, fieldSize: 4096 },
  });
  registerHealth(app, database.health);
  await registerTrpc(app);
  await app.register(apiRoutes, { prefix: '/api' });
  await registerClient(app, config.clientDir);
  return app;
}
