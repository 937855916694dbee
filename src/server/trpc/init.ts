import { must } from '../../shared/must';
import { initTRPC, TRPCError } from '@trpc/server';
import { describeIssues, errorCodes, INTERNAL_ERROR_MESSAGE, type ValidationIssue } from '../../shared/errors';
import { toAppError } from '../common/to-app-error';
import { errorIdOf } from '../http/logging';
import { withUserScope } from '../db/sql';
import type { AuthUser } from '../modules/auth/auth.service';
import type { Context } from './context';

function validationIssues(cause: unknown): ValidationIssue[] | null {
  const issues = (cause as { issues?: unknown } | undefined)?.issues;
  return Array.isArray(issues) ? (issues as ValidationIssue[]) : null;
}

const t = initTRPC.context<Context>().create({
  isDev: false,
  errorFormatter({ shape, error }) {
    const issues = error.code === 'BAD_REQUEST' ? validationIssues(error.cause) : null;
    const internal = error.code === 'INTERNAL_SERVER_ERROR';
    // The same id is in the 'tRPC error' log line (app.ts onError).
    const errorId = internal ? errorIdOf(error) : undefined;
    const message = issues
      ? describeIssues(issues)
      : internal
        ? `${INTERNAL_ERROR_MESSAGE} (error id ${errorId})`
        : shape.message;
    const details = (error.cause as { details?: Record<string, unknown> } | undefined)?.details;
    return {
      ...shape,
      message,
      data: { ...shape.data, ...(details ? { details } : {}), ...(errorId ? { errorId } : {}) },
    };
  },
});

/** Maps the service layer's AppError (and ORM errors) onto tRPC codes from the shared table. */
const mapErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && !(result.error.cause instanceof TRPCError) && result.error.code === 'INTERNAL_SERVER_ERROR') {
    const cause = result.error.cause ?? result.error;
    const appError = toAppError(cause);
    if (appError.code !== 'INTERNAL') {
      throw new TRPCError({ code: errorCodes[appError.code].trpc, message: appError.message, cause: appError });
    }
  }
  return result;
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure.use(mapErrors);

/**
 * Narrows the context to a signed-in user (access token or API token), with the request's entity
 * manager outside any transaction: the procedure scopes each database step itself (withUserScope),
 * as an import does so that reading a large file holds no connection. Most procedures use
 * protectedProcedure instead.
 */
export const signedInProcedure = publicProcedure.use(async ({ ctx, next }) => {
  if (!ctx.bearer) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Not signed in' });
  let user: AuthUser;
  try {
    user = await ctx.services.auth.authenticate(ctx.em, ctx.bearer, ctx.clientIp);
  } catch (error) {
    const appError = toAppError(error);
    if (appError.code === 'TOO_MANY_REQUESTS')
      throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: appError.message, cause: appError });
    throw new TRPCError({ code: 'UNAUTHORIZED', message: appError.message });
  }
  return next({ ctx: { ...ctx, user } });
});

/** A signed-in call in one transaction scoped to the user (row-level security on PostgreSQL), rolled back when it fails. */
export const protectedProcedure = signedInProcedure.use(async ({ ctx, next }) => {
  const call = (em: typeof ctx.em) => next({ ctx: { ...ctx, em } });
  let result: Awaited<ReturnType<typeof call>> | undefined;
  try {
    await withUserScope(ctx.em, ctx.user.id, async (em) => {
      result = await call(em);
      if (!result.ok) throw new Rollback();
    });
  } catch (error) {
    if (!(error instanceof Rollback)) throw error;
  }
  return must(result, 'the procedure ran (it answered or threw)');
});

/** Thrown inside the scoped transaction to roll it back when the procedure answered with an error. */
class Rollback extends Error {}
