import { z } from 'zod';
import { loginInputSchema, profileUpdateSchema, registerInputSchema } from '../../shared/schemas/auth';
import { importFieldsSchema } from '../../shared/schemas/import';
import { domainRoutes } from './domain-routes';
import type { RestRoute } from './rest-route';

/** A documented operation that is not in the domain route list (auth, upload). */
export interface DocumentedOperation {
  method: RestRoute['method'];
  url: string;
  tag: string;
  summary: string;
  body?: z.ZodType;
  /** Content type of the body; JSON unless given. */
  bodyType?: string;
  query?: z.ZodType;
  status?: number;
  answer: string;
  public?: boolean;
  /** Refusals beyond the ones the rules in `responses` give every operation. */
  refusals?: number[];
}

export const authOperations: DocumentedOperation[] = [
  { method: 'GET', url: '/auth/status', tag: 'Auth', summary: 'Whether registration is open', answer: '{ registrationOpen, hasUsers }', public: true },
  {
    method: 'POST',
    url: '/auth/register',
    tag: 'Auth',
    summary: 'Create a user (403 when registration is closed)',
    body: registerInputSchema,
    answer: '{ accessToken, refreshToken, user }',
    public: true,
    refusals: [403, 409],
  },
  {
    method: 'POST',
    url: '/auth/login',
    tag: 'Auth',
    summary: 'Sign in (429 with Retry-After after too many failures for the username or the address)',
    body: loginInputSchema,
    answer: '{ accessToken, refreshToken, user }',
    public: true,
    refusals: [401],
  },
  {
    method: 'POST',
    url: '/auth/refresh',
    tag: 'Auth',
    summary: 'Exchange a refresh token (sent as the bearer, empty body) for a new pair; the old one stops working',
    answer: '{ accessToken, refreshToken, user }',
    public: true,
    refusals: [401],
  },
  {
    method: 'POST',
    url: '/auth/logout',
    tag: 'Auth',
    summary: "End the refresh token's sign-in (sent as the bearer): its refresh and access tokens stop working",
    status: 204,
    answer: 'Nothing',
    public: true,
    refusals: [401],
  },
  { method: 'GET', url: '/auth/me', tag: 'Auth', summary: 'The signed-in user', answer: '{ id, username, apiTokenSet, apiTokenCreatedAt }' },
  {
    method: 'PUT',
    url: '/auth/profile',
    tag: 'Auth',
    summary: 'Change any of username, password, apiToken, with currentPassword (403 when it is wrong; counted as a failed login)',
    body: profileUpdateSchema,
    answer: '{ message, user }',
    refusals: [403],
  },
];

/** Operations other modules add (e.g. the CSV upload). */
export const extraOperations: DocumentedOperation[] = [
  {
    method: 'POST',
    url: '/upload',
    tag: 'Import',
    summary:
      'Import a bank file (CSV, OFX/QFX, QIF or CAMT.053, told apart by content) into an account as one batch (multipart: file, account, optional transactionType (default auto), dateFormat, flipAmounts, dryRun, mapping as JSON)',
    body: importFieldsSchema.extend({ file: z.string().describe('the statement file (binary)'), mapping: z.string().optional().describe('JSON {"header": true|false, "date": 0, "description": [1, 3], "amount": 2} or with "debit"/"credit" instead of "amount"; optional "category", "dateFormat"') }),
    bodyType: 'multipart/form-data',
    status: 201,
    answer: '{ message, batchId, imported, duplicates, skipped, warnings } (dryRun: the full preview); 422 with needsMapping and sample when the columns need a mapping',
    refusals: [200, 422],
  },
];

function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
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
function responses(op: DocumentedOperation): Record<string, unknown> {
  const statuses = new Set<number>([400, 429, 431, ...(op.refusals ?? [])]);
  if (!op.public) [401, 404].forEach((s) => statuses.add(s));
  if (op.method !== 'GET') {
    [413, 415].forEach((s) => statuses.add(s));
    if (!op.public) statuses.add(409);
  }
  const success = op.status ?? 200;
  statuses.delete(success);
  const out: Record<string, unknown> = { [String(success)]: { description: op.answer } };
  for (const status of [...statuses].sort((a, b) => a - b)) {
    out[String(status)] = status < 300 ? { description: REFUSALS[status] } : { description: REFUSALS[status], content: ERROR_CONTENT };
  }
  return out;
}

/** `GET /transactions/:id/splits` -> `getTransactionsByIdSplits`. */
export function operationId(method: string, url: string): string {
  const words = url
    .split('/')
    .filter(Boolean)
    .map((part) => (part.startsWith(':') ? `by-${part.slice(1)}` : part))
    .flatMap((part) => part.split(/[-_.]/))
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1));
  return method.toLowerCase() + words.join('');
}

function operation(op: DocumentedOperation & { params?: z.ZodType; download?: RestRoute['download'] }): Record<string, unknown> {
  const parameters: unknown[] = [];
  for (const [location, schema] of [
    ['path', op.params],
    ['query', op.query],
  ] as const) {
    if (!schema) continue;
    const described = jsonSchema(schema) as { properties?: Record<string, unknown>; required?: string[] };
    for (const [name, property] of Object.entries(described.properties ?? {})) {
      parameters.push({ name, in: location, required: location === 'path' || (described.required ?? []).includes(name), schema: property });
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
  const answers = responses(op);
  if (op.download) answers[String(op.status ?? 200)] = { description: op.answer, content: { [op.download.contentType]: {} } };
  return {
    operationId: operationId(op.method, op.url),
    tags: [op.tag],
    summary: op.summary,
    ...(op.public ? { security: [] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(op.body ? { requestBody: { required: true, content: { [op.bodyType ?? 'application/json']: { schema: jsonSchema(op.body) } } } } : {}),
    responses: answers,
  };
}

/** Every documented REST operation: auth, the domain routes and the upload (for tests walking them all). */
export function documentedOperations(): (DocumentedOperation & { params?: z.ZodType })[] {
  return [...authOperations, ...domainRoutes, ...extraOperations];
}

/** The OpenAPI 3.1 document of the REST surface, built from the same zod schemas the routes use. */
export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of documentedOperations()) {
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
        '200': { description: '{ status: "ok" }' },
        '503': { description: '{ status: "degraded", reason } when the database cannot be written; { status: "unavailable" } when it does not answer' },
      },
    },
  };
  paths['/api/openapi.json'] = {
    get: {
      operationId: 'getOpenapi',
      tags: ['Health'],
      summary: 'This document',
      security: [],
      responses: { '200': { description: 'OpenAPI 3.1' }, '429': { description: REFUSALS[429], content: ERROR_CONTENT } },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Budget Tracker REST API',
      version: '1.0.0',
      description:
        'Amounts are integer cents (|amount| <= 10^13); dates are YYYY-MM-DD. Authenticate with `Authorization: Bearer <access token or API token>`. Requests with an API token are limited per minute (429 with Retry-After).',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        Error: { type: 'object', properties: { error: { type: 'string' }, message: { type: 'string' } }, required: ['error', 'message'] },
      },
    },
    paths,
  };
}
