import type { FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors';
import { bearerFrom } from '../common/bearer';

/**
 * preHandler for every REST route of a signed-in user: accepts an access token
 * or the user's API token as `Authorization: Bearer ...`.
 */
export async function requireUser(request: FastifyRequest): Promise<void> {
  const bearer = bearerFrom(request.headers.authorization);
  if (!bearer) throw new AppError('UNAUTHORIZED', 'Not signed in: send Authorization: Bearer <token>');
  request.user = await request.server.services.auth.authenticate(request.em, bearer, request.ip);
}
