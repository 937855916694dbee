import type { EntityManager } from '@mikro-orm/knex';
import { withUserScope } from '../db/sql';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { z } from 'zod';
import type { AppConfig } from '../config/config';
import { keepCompressedForms } from './compression';
import { acceptQueryAccessToken, checkDownloadRequest } from './download';
import { RawJson } from './raw-json';
import { parseInput, requireBody } from './validate';
import { takeJsonAsStream } from './streamed-body';

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RestCall<P, Q, B> {
  em: EntityManager;
  /** The signed-in user's id (0 on a public route, which never reads it). */
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
 * P, Q and B are what `params`, `query` and `body` parse to; a route in a list (`RestRoute`) has them erased
 * to `unknown` by `restRoute()`.
 */
export interface RestRoute<P = unknown, Q = unknown, B = unknown> {
  method: HttpMethod;
  /** Fastify path under /api, e.g. `/transactions/:id`. */
  url: string;
  tag: string;
  summary: string;
  /** The operationId in the OpenAPI document; derived from the method and URL unless given. */
  operationId?: string;
  /** Reachable without signing in (auth calls): no `Authorization` needed. */
  public?: boolean;
  /** Still answered, but documented as replaced by another URL. */
  deprecated?: boolean;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /**
   * The body's content type when it is not JSON: with `multipart/form-data` the handler reads
   * the parts itself and `body` only describes the form for the OpenAPI document.
   */
  bodyType?: 'multipart/form-data';
  /** Success status; 200 unless given. */
  status?: number;
  /**
   * The success status chosen from the answer (e.g. 200 for a dry run of a route whose `status`
   * is 201). A handler never sends its own answer: the answer goes out after the user's
   * transaction commits, so a client never reads before the write it was told about.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each route's statusOf reads its own handler's answer type
  statusOf?: (result: any) => number;
  /** Other statuses the route may answer (e.g. 422 for a list too large, 200 for a dry run), for the OpenAPI document. */
  refusals?: number[];
  /** What a successful answer holds, in words, for the OpenAPI document. */
  answer: string;
  /**
   * The JSON a 2xx answer holds, for the OpenAPI document and the tests that check real answers;
   * null when there is none (204) or the answer is a `download` file.
   */
  output: z.ZodType | null;
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
  /**
   * The handler gets the request's entity manager outside any transaction and scopes each of its
   * database steps itself (withUserScope), e.g. so an upload is read and parsed without holding a
   * database connection. On PostgreSQL a read it forgets to scope sees no rows at all.
   */
  scopesItself?: boolean;
  /**
   * The handler reads the JSON body as it arrives (`streamedBody(request, reply, limit)`), for a body too large to
   * parse in one call; `body` then only describes it for the OpenAPI document.
   */
  streamsBody?: boolean;
  /** The largest request body, for a route that takes more than BODY_LIMIT_BYTES. */
  bodyLimit?: (config: AppConfig) => number;
  /** Answers the call: a value, or a promise of one (a RawJson is sent as the JSON it holds). */
  handler: (call: RestCall<P, Q, B>) => unknown;
}

/**
 * Checks a route's handler against its schemas, then erases P, Q and B so routes of every shape share one
 * list. The one assertion is what registerRestRoutes guarantees: the handler is called with what
 * `params`, `query` and `body` parsed to (undefined where the route has none, and P, Q, B default to undefined).
 */
export function restRoute<P = undefined, Q = undefined, B = undefined>(route: RestRoute<P, Q, B>): RestRoute {
  return { ...route, handler: (call) => route.handler(call as RestCall<P, Q, B>) };
}

/** Registers routes; a route that is not `public` needs an instance whose preHandler has already set `request.user`. */
export function registerRestRoutes(app: FastifyInstance, routes: readonly RestRoute[]): void {
  for (const route of routes) {
    const options: RouteOptions = {
      method: route.method,
      url: route.url,
      ...(route.bodyLimit ? { bodyLimit: route.bodyLimit(app.config) } : {}),
      ...(route.download ? { preValidation: acceptQueryAccessToken } : {}),
      handler: async (request, reply) => {
        if (route.download) checkDownloadRequest(request, reply);
        const params = route.params ? parseInput(route.params, request.params) : undefined;
        const query = route.query ? parseInput(route.query, request.query) : undefined;
        const body =
          route.body && !route.bodyType && !route.streamsBody
            ? parseInput(route.body, requireBody(request.body))
            : undefined;
        const call = (em: EntityManager, userId: number) =>
          route.handler({ em, userId, params, query, body, request, reply });
        // A public route reads no user's rows; a streamed answer scopes its own reads (see streamsAnswer).
        const result = route.public
          ? await call(request.em, 0)
          : route.streamsAnswer || route.scopesItself
            ? await call(request.em, request.user.id)
            : await withUserScope(request.em, request.user.id, (em) => Promise.resolve(call(em, request.user.id)));
        if (reply.sent) return reply;
        const status = route.statusOf ? route.statusOf(result) : route.status;
        if (status) reply.status(status);
        if (result === undefined) return reply.status(status ?? 204).send();
        if (result instanceof RawJson) {
          if (result.kept) keepCompressedForms(result.bytes);
          return reply.type('application/json; charset=utf-8').send(result.bytes);
        }
        return result;
      },
    };
    if (!route.streamsBody) app.route(options);
    else
      void app.register((streaming, _options, done) => {
        takeJsonAsStream(streaming);
        streaming.route(options);
        done();
      });
  }
}
