// The request.user that @fastify/jwt declares on FastifyRequest (augmented below); a program that reaches the
// server only through types (the client's) would not load it otherwise.
import type {} from '@fastify/jwt';
import type { EntityManager } from '@mikro-orm/knex';
import type { Orm as MikroORM } from './db/database';
import type { AppConfig } from './config/config';
import type { AccessTokenClaims, AuthUser, MfaTokenClaims } from './modules/auth/auth.service';
import type { AppServices } from './services';

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
    orm: MikroORM;
    services: AppServices;
  }
  interface FastifyRequest {
    /** A fork of the ORM's entity manager for this request alone. */
    em: EntityManager;
  }
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: AccessTokenClaims | MfaTokenClaims;
    user: AuthUser;
  }
}
