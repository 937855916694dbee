import { z } from 'zod';
import { must } from '../../shared/must';
import { authRoutes } from '../modules/auth/auth.rest';
import { uploadRoute } from '../modules/import/import.rest';
import { rateImportRoute } from '../modules/rates/rates.rest';
import { domainRoutes } from './domain-routes';
import type { RestRoute } from './rest-route';

/** Every REST route under /api, in one list: registered (api.ts), documented (below) and walked by the tests. */
export const restRoutes: readonly RestRoute[] = [...authRoutes, ...domainRoutes, uploadRoute, rateImportRoute];

function jsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'input'): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  // The document states its dialect once; each embedded schema does not.
  delete json.$schema;
  return json;
}

function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z_]+)/g, '{$1}');
}

const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

const REFUSALS: Record<number, string> = {
  200: 'Done (e.g. a dry run, or nothing to import)',
  400: 'Invalid input (a field, a control character, a missing or malformed body): { error, message } names the problem',
  401: 'Not signed in, or the credentials are wrong',
  403: 'Forbidden (e.g. registration closed, wrong current password)',
  404: 'Not found, or not yours',
  409: 'Conflicts with existing data',
  413: 'Request body too large',
  415: 'Unsupported Content-Type',
  422: 'Understood but refused (e.g. more than 100,000 rows: narrow the range or page)',
  429: 'Too many requests or failed attempts: wait the seconds in Retry-After',
  431: 'Request line or headers too large (e.g. a query string over 16 KB)',
};

/** Every status an operation can answer: its success, the refusals every route shares, and its own. */
function responses(op: RestRoute): Record<string, unknown> {
  const statuses = new Set<number>([400, 429, 431, ...(op.refusals ?? [])]);
  if (!op.public) [401, 404].forEach((s) => statuses.add(s));
  if (op.method !== 'GET') {
    [413, 415].forEach((s) => statuses.add(s));
    if (!op.public) statuses.add(409);
  }
  const success = op.status ?? 200;
  statuses.delete(success);
  const out: Record<string, unknown> = { [String(success)]: answer(op, op.answer) };
  for (const status of [...statuses].sort((a, b) => a - b)) {
    const description = must(REFUSALS[status], `REFUSALS describes status ${status}, which a route answers`);
    out[String(status)] = status < 300 ? answer(op, description) : { description, content: ERROR_CONTENT };
  }
  return out;
}

/** A 2xx answer: its words and, unless it is empty or a file, the schema of its JSON. */
function answer(op: RestRoute, description: string): Record<string, unknown> {
  if (op.download) {
    const file = op.download.contentType.startsWith('text/')
      ? { type: 'string', description: `The file as ${op.download.contentType} text` }
      : { type: 'string', format: 'binary' };
    return {
      description,
      content: { [op.download.contentType]: { schema: op.output ? jsonSchema(op.output, 'output') : file } },
    };
  }
  if (!op.output) return { description };
  return { description, content: { 'application/json': { schema: jsonSchema(op.output, 'output') } } };
}

/** `GET /transactions/:id/splits` -> `getTransactionsByIdSplits`. */
export function operationId(method: string, url: string): string {
  const words = url
    .split('/')
    .filter(Boolean)
    .map((part) => (part.startsWith(':') ? `by-${part.slice(1)}` : part))
    .flatMap((part) => part.split(/[-_.]/))
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  return method.toLowerCase() + words.join('');
}

function operation(op: RestRoute): Record<string, unknown> {
  const parameters: unknown[] = [];
  for (const [location, schema] of [
    ['path', op.params],
    ['query', op.query],
  ] as const) {
    if (!schema) continue;
    const described = jsonSchema(schema) as { properties?: Record<string, unknown>; required?: string[] };
    for (const [name, property] of Object.entries(described.properties ?? {})) {
      parameters.push({
        name,
        in: location,
        required: location === 'path' || (described.required ?? []).includes(name),
        schema: property,
      });
    }
  }
  if (op.download) {
    parameters.push({
      name: 'access_token',
      in: 'query',
      required: false,
      description: 'For a browser link that cannot send Authorization: the session access token (never the API token)',
      schema: { type: 'string' },
    });
  }
  return {
    operationId: op.operationId ?? operationId(op.method, op.url),
    tags: [op.tag],
    summary: op.summary,
    ...(op.deprecated ? { deprecated: true } : {}),
    ...(op.public ? { security: [] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(op.body
      ? {
          requestBody: {
            required: true,
            content: { [op.bodyType ?? 'application/json']: { schema: jsonSchema(op.body) } },
          },
        }
      : {}),
    responses: responses(op),
  };
}

/** What GET /api/health answers, whatever its status. */
const HEALTH_SCHEMA = {
  type: 'object',
  required: ['status'],
  properties: {
    status: { type: 'string', enum: ['ok', 'degraded', 'unavailable'] },
    reason: { type: 'string', description: 'Why the server is degraded or unavailable' },
    error: { type: 'string' },
    message: { type: 'string' },
  },
};

/** The OpenAPI 3.1 document of the REST surface, built from the same zod schemas the routes use. */
export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of restRoutes) {
    const path = `/api${openApiPath(op.url)}`;
    paths[path] ??= {};
    paths[path][op.method.toLowerCase()] = operation(op);
  }
  paths['/api/health'] = {
    get: {
      operationId: 'getHealth',
      tags: ['Health'],
      summary: 'Answers 200 { status: "ok" } when the database answers and can be written; never rate limited',
      security: [],
      responses: {
        '200': {
          description:
            '{ status: "ok" }; { status: "degraded", reason } while PostgreSQL runs with row-level security bypassed (ALLOW_RLS_BYPASS=true)',
          content: { 'application/json': { schema: HEALTH_SCHEMA } },
        },
        '431': { description: REFUSALS[431], content: ERROR_CONTENT },
        '503': {
          description:
            '{ status: "degraded", reason } when the database cannot be written; { status: "unavailable" } when it does not answer',
          content: { 'application/json': { schema: HEALTH_SCHEMA } },
        },
      },
    },
  };
  paths['/api/openapi.json'] = {
    get: {
      operationId: 'getOpenapi',
      tags: ['Health'],
      summary: 'This document',
      security: [],
      responses: {
        '200': {
          description: 'OpenAPI 3.1',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['openapi', 'info', 'paths'],
                properties: { openapi: { type: 'string' }, info: { type: 'object' }, paths: { type: 'object' } },
              },
            },
          },
        },
        '429': { description: REFUSALS[429], content: ERROR_CONTENT },
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Budget Tracker REST API',
      version: '1.0.0',
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'Amounts are integer cents (|amount| <= 10^13); dates are YYYY-MM-DD. Authenticate with `Authorization: Bearer <access token or API token>`. Requests with an API token are limited per minute (429 with Retry-After).',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        Error: {
          type: 'object',
          properties: { error: { type: 'string' }, message: { type: 'string' } },
          required: ['error', 'message'],
        },
      },
    },
    paths,
  };
}
