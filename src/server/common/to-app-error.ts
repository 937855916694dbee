import {
  DriverException,
  ForeignKeyConstraintViolationException,
  NotFoundError,
  UniqueConstraintViolationException,
} from '@mikro-orm/core';
import type { FastifyError } from 'fastify';
import { ZodError } from 'zod';
import { AppError, codeForStatus, describeIssues, INTERNAL_ERROR_MESSAGE, isAppError } from '../../shared/errors';

/**
 * Turns anything thrown into an AppError: expected failures keep their message,
 * framework 4xx errors get a plain sentence, anything else becomes a generic 500
 * whose cause is logged and never sent.
 */
export function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  if (error instanceof ZodError) return new AppError('BAD_REQUEST', describeIssues(error.issues));
  if (error instanceof NotFoundError) return new AppError('NOT_FOUND', 'Not found');
  if (error instanceof UniqueConstraintViolationException) {
    return new AppError('CONFLICT', 'That conflicts with something that already exists');
  }
  if (error instanceof ForeignKeyConstraintViolationException) {
    return new AppError('CONFLICT', 'That is still in use by other records');
  }
  if (error instanceof DriverException) return new AppError('INTERNAL', INTERNAL_ERROR_MESSAGE);
  const fastifyError = error as Partial<FastifyError> | undefined;
  const status = fastifyError?.statusCode;
  if (fastifyError && typeof status === 'number' && status >= 400 && status < 500) {
    return new AppError(codeForStatus(status), frameworkMessage(fastifyError));
  }
  return new AppError('INTERNAL', INTERNAL_ERROR_MESSAGE);
}

function frameworkMessage(error: Partial<FastifyError>): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'Request body is too large';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'Request body is empty but Content-Type is application/json';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported Content-Type: send JSON (application/json)';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    default:
      if (error instanceof SyntaxError || /JSON/i.test(error.message ?? '')) return 'Request body is not valid JSON';
      return error.message || 'Bad request';
  }
}
