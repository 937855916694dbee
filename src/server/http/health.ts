import type { FastifyInstance } from 'fastify';
import type { DatabaseHealth } from '../db/app-database';

/**
 * GET /api/health (no sign-in needed): 200 `ok` while the database answers and takes writes, 200 `degraded` with
 * the reason while it works without a protection it should have, 503 otherwise. The answer never names a path;
 * the log line does.
 */
export function registerHealth(app: FastifyInstance, health: () => Promise<DatabaseHealth>): void {
  app.get('/api/health', async (_request, reply) => {
    const state = await health();
    if (state.ok) return state.warning ? { status: 'degraded', reason: state.warning } : { status: 'ok' };
    if (state.status === 'unavailable')
      return reply
        .status(503)
        .send({ status: state.status, reason: state.reason, error: state.reason, message: state.reason });
    app.log.error({ reason: state.detail ?? state.reason }, 'health: database not writable');
    return reply.status(503).send({ status: state.status, reason: state.reason });
  });
}
