import type { z } from 'zod';
import { AppError, describeIssues } from '../../shared/errors';

/** Parses a request part with a shared schema; a failure is a 400 naming each field. */
export function parseInput<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data ?? {});
  if (!result.success) throw new AppError('BAD_REQUEST', describeIssues(result.error.issues));
  return result.data;
}

/**
 * A route that takes a JSON body refuses a missing or null one (PUT with no body must not
 * answer 200 having changed nothing).
 */
export function requireBody(body: unknown): unknown {
  if (body === undefined || body === null || body === '') {
    throw new AppError('BAD_REQUEST', 'Request body is required: send a JSON object');
  }
  return body;
}
