import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, FastifyServerOptions } from 'fastify';
import helmet from 'helmet';
import { AppError } from '../../shared/errors';
import type { AppConfig, TrustProxy } from '../config/config';
import { bearerFrom } from '../common/bearer';
import { looksLikeAccessToken } from '../modules/auth/auth.service';
import { sha256Hex } from '../modules/auth/crypto';

const HSTS = 'max-age=31536000';

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

/**
 * Security headers: a strict content policy, and HSTS only on answers that went out over HTTPS. Helmet's middleware
 * is built once, at start (its Fastify plugin built it again from the options on every request).
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  const securityHeaders = helmet({
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
    // Self-hosters often serve plain HTTP on a LAN.
    hsts: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    // request.protocol is https for TLS, or when a trusted proxy says so in X-Forwarded-Proto.
    if (request.protocol === 'https') reply.header('Strict-Transport-Security', HSTS);
    securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined));
  });
}

/** Per-API-token request limit; the browser's session (access tokens) and /api/health are exempt. */
export async function registerApiTokenLimit(app: FastifyInstance, config: AppConfig): Promise<void> {
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
        { retryAfterSeconds: Math.max(1, Math.ceil(context.ttl / 1000)) },
      ),
  });
}
