/**
 * One error type and one table. Services throw `AppError(code, message)`; the
 * tRPC error formatter and the Fastify error handler both read this table, so a
 * code means the same HTTP status on both front doors.
 */
export const errorCodes = {
  BAD_REQUEST: { http: 400, trpc: 'BAD_REQUEST', label: 'Bad Request' },
  UNAUTHORIZED: { http: 401, trpc: 'UNAUTHORIZED', label: 'Unauthorized' },
  FORBIDDEN: { http: 403, trpc: 'FORBIDDEN', label: 'Forbidden' },
  NOT_FOUND: { http: 404, trpc: 'NOT_FOUND', label: 'Not Found' },
  CONFLICT: { http: 409, trpc: 'CONFLICT', label: 'Conflict' },
  PAYLOAD_TOO_LARGE: { http: 413, trpc: 'PAYLOAD_TOO_LARGE', label: 'Payload Too Large' },
  UNSUPPORTED_MEDIA_TYPE: { http: 415, trpc: 'UNSUPPORTED_MEDIA_TYPE', label: 'Unsupported Media Type' },
  UNPROCESSABLE: { http: 422, trpc: 'UNPROCESSABLE_CONTENT', label: 'Unprocessable Content' },
  TOO_MANY_REQUESTS: { http: 429, trpc: 'TOO_MANY_REQUESTS', label: 'Too Many Requests' },
  INTERNAL: { http: 500, trpc: 'INTERNAL_SERVER_ERROR', label: 'Internal Server Error' },
} as const;

export type ErrorCode = keyof typeof errorCodes;
export type TrpcErrorCode = (typeof errorCodes)[ErrorCode]['trpc'];

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra facts for the client, e.g. `retryAfterSeconds` or date-format candidates. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return errorCodes[this.code].http;
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

/** Text shown for any unexpected failure; the cause is logged, never sent. */
export const INTERNAL_ERROR_MESSAGE = 'Something went wrong on the server. Please try again.';

/** Codes by HTTP status, for turning framework errors (body too large, bad JSON) into ours. */
export function codeForStatus(status: number): ErrorCode {
  const found = (Object.keys(errorCodes) as ErrorCode[]).find((code) => errorCodes[code].http === status);
  if (found) return found;
  return status >= 500 ? 'INTERNAL' : 'BAD_REQUEST';
}

export interface ValidationIssue {
  path: PropertyKey[];
  message: string;
}

/** "amount: must be an integer number of cents; postDate: Invalid date" */
export function describeIssues(issues: readonly ValidationIssue[]): string {
  const parts = issues.map((issue) => {
    const where = issue.path.map(String).join('.');
    return where ? `${where}: ${issue.message}` : issue.message;
  });
  return [...new Set(parts)].join('; ') || 'Invalid input';
}
