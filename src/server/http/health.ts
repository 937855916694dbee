import type { FastifyInstance } from 'fastify';
import type { DatabaseHealth } from '../db/app-database';

/** GET /api/health: 200 while the database answers and takes writes, 503 otherwise (no sign-in needed). */
export function registerHealth(app: FastifyInstance, health: () => Promise<DatabaseHealth>): void {
  app.get('/api/health', async (_request, reply) => {
    const state = await health();
    if (state.ok) return { status: 'ok' };
    if (state.status === 'unavailable')
      return reply
        .status(503)
        .send({ status: state.status, reason: state.reason, error: state.reason, message: state.reason });
    app.log.error({ reason: state.reason }, 'health: database not writable');
    return reply.status(503).send({ status: state.status, reason: state.reason });
  });
}
