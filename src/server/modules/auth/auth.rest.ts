import type { FastifyInstance } from 'fastify';
import { AppError } from '../../../shared/errors';
import { loginInputSchema, profileUpdateSchema, refreshInputSchema, registerInputSchema } from '../../../shared/schemas/auth';
import { parseInput, requireBody } from '../../http/validate';
import { bearerFrom } from '../../common/bearer';

/** Public auth calls: no access token needed. */
export async function authPublicRest(app: FastifyInstance): Promise<void> {
  app.get('/auth/status', (req) => app.services.auth.status(req.em));

  app.post('/auth/register', (req) => app.services.auth.register(req.em, parseInput(registerInputSchema, req.body)));

  app.post('/auth/login', (req) => app.services.auth.login(req.em, parseInput(loginInputSchema, req.body), req.ip));

  /** The refresh token comes as the bearer with an empty body (or as `refreshToken` in a JSON body). */
  app.post('/auth/refresh', (req) => {
    const token = refreshTokenOf(req.headers.authorization, req.body);
    return app.services.auth.refresh(req.em, token);
  });

  app.post('/auth/logout', async (req, reply) => {
    await app.services.auth.logout(req.em, refreshTokenOf(req.headers.authorization, req.body));
    return reply.status(204).send();
  });
}

/** Auth calls for a signed-in user. */
export async function authRest(app: FastifyInstance): Promise<void> {
  app.get('/auth/me', (req) => app.services.auth.me(req.em, req.user.id));

  app.put('/auth/profile', async (req) => {
    const changes = parseInput(profileUpdateSchema, requireBody(req.body));
    const user = await app.services.auth.updateProfile(req.em, req.user.id, changes, { address: req.ip, signInId: req.user.signInId });
    return { message: 'Profile updated', user };
  });
}

function refreshTokenOf(authorization: string | undefined, body: unknown): string {
  const bearer = bearerFrom(authorization);
  if (bearer) return bearer;
  if (body && typeof body === 'object' && 'refreshToken' in body) {
    return parseInput(refreshInputSchema, body).refreshToken;
  }
  throw new AppError('UNAUTHORIZED', 'Refresh token is required as the bearer token');
}
