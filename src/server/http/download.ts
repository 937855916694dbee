import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors';

/**
 * Downloads a browser starts itself (a link, `window.location`) cannot send an Authorization
 * header. Routes marked `download` therefore also take the session's access token as the
 * `access_token` query parameter (RFC 6750 section 2.3), with its precautions: only short-lived
 * session access tokens (never the long-lived API token), `Cache-Control: no-store` on the
 * answer, no Referer (Referrer-Policy: no-referrer is set on every answer) and the token masked
 * in the request log (`redactAccessToken`).
 */
const viaQuery = new WeakSet<FastifyRequest>();

/** preValidation of a download route: moves `access_token` from the query into the Authorization header. */
export function acceptQueryAccessToken(request: FastifyRequest, _reply: FastifyReply, done: () => void): void {
  const token = (request.query as Record<string, unknown> | undefined)?.access_token;
  if (!request.headers.authorization && typeof token === 'string' && token !== '') {
    request.headers.authorization = `Bearer ${token}`;
    viaQuery.add(request);
  }
  done();
}

/** Refuses an API token that came in the query (it would linger in histories and logs); marks the answer uncacheable. */
export function checkDownloadRequest(request: FastifyRequest, reply: FastifyReply): void {
  // @fastify/jwt types request.user as always there; it is there only once requireUser has run (not on a public route).
  const user = request.user as FastifyRequest['user'] | undefined;
  if (viaQuery.has(request) && user?.via !== 'session') {
    throw new AppError(
      'UNAUTHORIZED',
      'Only a session access token may be sent as access_token; send an API token as Authorization: Bearer <token>',
    );
  }
  reply.header('cache-control', 'no-store');
}

/** The request URL as logged: the value of any access_token parameter replaced by [REDACTED]. */
export function redactAccessToken(url: string): string {
  return url.replace(/([?&]access_token=)[^&#]*/gi, '$1[REDACTED]');
}

/** `attachment; filename="..."` with a plain-ASCII name. */
export function attachment(fileName: string): string {
  return `attachment; filename="${fileName.replace(/[^\w.-]+/g, '-')}"`;
}
