import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config/config';
import { AppError } from '../../src/shared/errors';
import { rest } from '../helpers/http';

let app: FastifyInstance;
let url: string;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'bt-errors-'));
  app = await buildApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), { logger: false });
  app.get('/api/test/boom', () => {
    throw new Error('secret internal detail at /srv/app.ts:12');
  });
  app.get('/api/test/conflict', () => {
    throw new AppError('CONFLICT', 'That name is taken');
  });
  app.get('/api/test/slow-down', () => {
    throw new AppError('TOO_MANY_REQUESTS', 'Slow down', { retryAfterSeconds: 42 });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('error handler', () => {
  it('answers an unexpected error with a generic 500 and no internals', async () => {
    const res = await rest(url, 'GET', '/api/test/boom');
    expect(res.status).toBe(500);
    const errorId = res.body.errorId;
    expect(errorId).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body).toEqual({
      error: `Something went wrong on the server. Please try again. (error id ${errorId})`,
      message: `Something went wrong on the server. Please try again. (error id ${errorId})`,
      errorId,
    });
    expect(JSON.stringify(res.body)).not.toContain('secret');
  });

  it('answers an expected failure with its status and message', async () => {
    const res = await rest(url, 'GET', '/api/test/conflict');
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'That name is taken', message: 'That name is taken' });
  });

  it('sends Retry-After for a 429', async () => {
    const res = await rest(url, 'GET', '/api/test/slow-down');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('42');
    expect(res.body.retryAfterSeconds).toBe(42);
  });

  it('refuses a signed-in route without a token, with JSON', async () => {
    const res = await rest(url, 'GET', '/api/auth/me');
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('Not signed in: send Authorization: Bearer <token>');
  });
});
