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
}

export const authOperations: DocumentedOperation[] = [
  { method: 'GET', url: '/auth/status', tag: 'Auth', summary: 'Whether registration is open', answer: '{ registrationOpen, hasUsers }', public: true },
  { method: 'POST', url: '/auth/register', tag: 'Auth', summary: 'Create a user', body: registerInputSchema, answer: '{ accessToken, refreshToken, user }', public: true },
  { method: 'POST', url: '/auth/login', tag: 'Auth', summary: 'Sign in', body: loginInputSchema, answer: '{ accessToken, refreshToken, user }', public: true },
  {
    method: 'POST',
    url: '/auth/refresh',
    tag: 'Auth',
    summary: 'Exchange a refresh token (sent as the bearer, empty body) for a new pair; the old one stops working',
    answer: '{ accessToken, refreshToken, user }',
    public: true,
  },
  { method: 'POST', url: '/auth/logout', tag: 'Auth', summary: 'Revoke a refresh token (sent as the bearer)', status: 204, answer: 'Nothing', public: true },
  { method: 'GET', url: '/auth/me', tag: 'Auth', summary: 'The signed-in user', answer: '{ id, username, apiTokenSet, apiTokenCreatedAt }' },
  { method: 'PUT', url: '/auth/profile', tag: 'Auth', summary: 'Change any of username, password, apiToken', body: profileUpdateSchema, answer: '{ message, user }' },
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
  },
];

function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z_]+)/g, '{$1}');
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
  const status = String(op.status ?? 200);
  const answer = op.download ? { description: op.answer, content: { [op.download.contentType]: {} } } : { description: op.answer };
  return {
    tags: [op.tag],
    summary: op.summary,
    ...(op.public ? { security: [] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(op.body ? { requestBody: { required: true, content: { [op.bodyType ?? 'application/json']: { schema: jsonSchema(op.body) } } } } : {}),
    responses: {
      [status]: answer,
      '400': { description: 'Invalid input: { error, message } names the field', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      ...(op.public ? {} : { '401': { description: 'Not signed in' }, '404': { description: 'Not found or not yours' } }),
    },
  };
}

/** The OpenAPI 3.1 document of the REST surface, built from the same zod schemas the routes use. */
export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const all: (DocumentedOperation & { params?: z.ZodType })[] = [...authOperations, ...domainRoutes, ...extraOperations];
  for (const op of all) {
    const path = `/api${openApiPath(op.url)}`;
    paths[path] ??= {};
    paths[path][op.method.toLowerCase()] = operation(op);
  }
  paths['/api/health'] = {
    get: { tags: ['Health'], summary: 'Answers 200 { status: "ok" } when the database answers', security: [], responses: { '200': { description: '{ status }' } } },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Budget Tracker REST API',
      version: '1.0.0',
      description: 'Amounts are integer cents; dates are YYYY-MM-DD. Authenticate with `Authorization: Bearer <access token or API token>`.',
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
