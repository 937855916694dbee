import type { FastifyInstance } from 'fastify';
import { AppError, INTERNAL_ERROR_MESSAGE } from '../../shared/errors';
import { toAppError } from '../common/to-app-error';
import { errorIdOf } from './logging';

export function errorBody(error: AppError): Record<string, unknown> {
  return { error: error.message, message: error.message, ...(error.details ?? {}) };
}

/** A 500's answer: the generic text plus an id that its log line also carries. */
export function internalError(errorId: string): AppError {
  return new AppError('INTERNAL', `${INTERNAL_ERROR_MESSAGE} (error id ${errorId})`, { errorId });
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    let appError = toAppError(error);
    if (appError.code === 'INTERNAL') {
      const errorId = errorIdOf(error as object);
      request.log.error({ err: error, errorId }, 'unexpected error');
      appError = internalError(errorId);
    } else request.log.info({ code: appError.code, message: appError.message }, 'request refused');
    const retryAfter = appError.details?.retryAfterSeconds;
    if (typeof retryAfter === 'number') reply.header('Retry-After', String(retryAfter));
    const totalCount = appError.details?.totalCount;
    if (typeof totalCount === 'number') reply.header('X-Total-Count', String(totalCount));
    return reply.status(appError.status).type('application/json; charset=utf-8').send(errorBody(appError));
  });
}
