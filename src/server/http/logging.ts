import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import type { FastifyServerOptions } from 'fastify';
import type { AppConfig } from '../config/config';
import { redactAccessToken } from './download';

/**
 * What the JSON logs may carry: never SQL with its values inlined (the ORM puts the failing
 * statement into its error messages), passwords, tokens or Authorization headers. Errors keep
 * their type, code and the driver's own message; a 500's log line and answer share an error id.
 */
const SQL_STATEMENT =
  /\b(insert\s+into|update\s+[`"\w.]+\s+set|delete\s+from|select\s[\s\S]*?\sfrom|replace\s+into|create\s+(?:unique\s+)?(?:table|index)|drop\s+(?:table|index)|alter\s+table|with\s+recursive)\b/i;

/** Replaces a logged text that holds a SQL statement by the driver's message alone. */
export function scrubSql(text: string | undefined): string | undefined {
  if (!text || !SQL_STATEMENT.test(text)) return text;
  const lines = text.split('\n');
  const out = lines.map((line) => {
    if (!SQL_STATEMENT.test(line)) return line;
    const driverMessage = line.lastIndexOf(' - ');
    return driverMessage >= 0
      ? `[SQL statement omitted] - ${line.slice(driverMessage + 3)}`
      : '[SQL statement omitted]';
  });
  return out.join('\n');
}

interface SerializedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
  code?: unknown;
  cause?: SerializedError;
}

/** Errors as logged: type, code, message and stack with SQL statements left out, causes alike. */
export function serializeError(error: unknown, depth = 0): SerializedError {
  if (!(error instanceof Error)) return { type: typeof error, message: scrubSql(String(error)) ?? '', stack: '' };
  const e = error as Error & { code?: unknown };
  const out: SerializedError = {
    type: e.name || e.constructor.name || 'Error',
    message: scrubSql(e.message) ?? '',
    stack: scrubSql(e.stack) ?? '',
  };
  if (e.code !== undefined) out.code = e.code;
  if (e.cause !== undefined && depth < 4) out.cause = serializeError(e.cause, depth + 1);
  return out;
}

const SECRET_FIELDS = [
  'password',
  'currentPassword',
  'newPassword',
  'apiToken',
  'accessToken',
  'refreshToken',
  'token',
  'passwordHash',
  'apiTokenHash',
];

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((field) => `*.${field}`),
  ...SECRET_FIELDS.map((field) => `*.*.${field}`),
];

/** Fastify's logger options: level, redaction and error serializer; `stream` for tests. */
export function loggerOptions(config: AppConfig, stream?: Writable): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      err: serializeError,
      error: serializeError,
      // Download links may carry the session's access token in the query (see download.ts).
      req: (req) => ({ method: req.method, url: redactAccessToken(req.url), host: req.host, remoteAddress: req.ip }),
    },
    ...(stream ? { stream } : {}),
  };
}

const errorIds = new WeakMap<object, string>();

/** The id shared by a 500's answer and its log line (made on first ask). */
export function errorIdOf(error: object): string {
  let id = errorIds.get(error);
  if (!id) {
    id = randomUUID();
    errorIds.set(error, id);
  }
  return id;
}
