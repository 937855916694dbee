import type { EntityManager } from '@mikro-orm/knex';
import { withUserScope } from '../db/sql';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppConfig } from '../config/config';
import { acceptQueryAccessToken, checkDownloadRequest } from './download';
import { parseInput, requireBody } from './validate';

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RestCall<P, Q, B> {
  em: EntityManager;
  userId: number;
  params: P;
  query: Q;
  body: B;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * One REST adapter, described as data so the same list registers the Fastify
 * routes, builds the OpenAPI document and drives the per-user isolation test.
 */
export interface RestRoute<P = any, Q = any, B = any> {
  method: HttpMethod;
  /** Fastify path under /api, e.g. `/transactions/:id`. */
  url: string;
  tag: string;
  summary: string;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** Success status; 200 unless given. */
  status?: number;
  /** Refusals beyond the ones every route can answer (e.g. 422 for a list too large), for the OpenAPI document. */
  refusals?: number[];
  /** What a successful answer holds, for the OpenAPI document. */
  answer: string;
  /**
   * A file to download (its content type): a browser link may then sign in with the session's
   * `access_token` query parameter (see download.ts), and the answer is never cached.
   */
  download?: { contentType: string };
  /**
   * The answer is a stream read after the handler returns: the handler gets the request's
   * entity manager outside any transaction and scopes its reads itself (withUserScope per page).
   * Every other handler runs in one transaction scoped to the user (row-level security on PostgreSQL).
   */
  streamsAnswer?: boolean;
  /** The largest request body, for a route that takes more than BODY_LIMIT_BYTES. */
  bodyLimit?(config: AppConfig): number;
  handler(call: RestCall<P, Q, B>): Promise<unknown> | unknown;
}

export function restRoute<P = undefined, Q = undefined, B = undefined>(route: RestRoute<P, Q, B>): RestRoute<P, Q, B> {
  return route;
}

/** Registers routes on an instance whose preHandler has already set `request.user`. */
export function registerRestRoutes(app: FastifyInstance, routes: readonly RestRoute[]): void {
  for (const route of routes) {
    app.route({
      method: route.method,
      url: route.url,
      ...(route.bodyLimit ? { bodyLimit: route.bodyLimit(app.config) } : {}),
      ...(route.download ? { preValidation: acceptQueryAccessToken } : {}),
      handler: async (request, reply) => {
        if (route.download) checkDownloadRequest(request, reply);
        const params = route.params ? parseInput(route.params, request.params) : undefined;
        const query = route.query ? parseInput(route.query, request.query) : undefined;
        const body = route.body ? parseInput(route.body, requireBody(request.body)) : undefined;
        const call = (em: EntityManager) => route.handler({ em, userId: request.user.id, params, query, body, request, reply });
        const result = route.streamsAnswer ? await call(request.em) : await withUserScope(request.em, request.user.id, async (em) => call(em));
        if (reply.sent) return reply;
        if (route.status) reply.status(route.status);
        if (result === undefined) return reply.status(route.status ?? 204).send();
        return result;
      },
    });
  }
}
