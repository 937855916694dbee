import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerClient } from '../../src/server/http/client';

/**
 * The built client is served from its folder by one route, whatever the number of files the build wrote: a route
 * per file (hundreds, each with its HEAD twin and handlers) was held in the idle server's memory for good.
 */
let dir: string;
let app: FastifyInstance;
const FILES = 120;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'bt-client-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  for (let i = 0; i < FILES; i += 1) {
    const text = `export const n${i} = ${i};`;
    writeFileSync(path.join(dir, 'assets', `chunk-${i}.js`), text);
    writeFileSync(path.join(dir, 'assets', `chunk-${i}.js.br`), brotliCompressSync(text));
  }
  writeFileSync(path.join(dir, 'assets', 'chunk-0.js.map'), '{}');
  app = Fastify();
  app.get('/api/health', () => ({ status: 'ok' }));
  await registerClient(app, dir);
  await app.ready();
});

afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the built client', () => {
  it('is served by routes that do not grow with its files', () => {
    const routes = app.printRoutes({ commonPrefix: false });
    expect(routes).not.toContain('chunk-');
    expect(routes.split('\n').length).toBeLessThan(FILES / 4);
  });

  it('answers its files (compressed when the client takes it), deep links with the page, and the rest with 404', async () => {
    const asset = await app.inject({ url: '/assets/chunk-7.js', headers: { 'accept-encoding': 'br' } });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-encoding']).toBe('br');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const plain = await app.inject({ url: '/assets/chunk-7.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.body).toBe('export const n7 = 7;');
    const head = await app.inject({ method: 'HEAD', url: '/assets/chunk-8.js' });
    expect(head.statusCode).toBe(200);
    for (const link of ['/', '/transactions', '/accounts/3/register?x=1', '/assets/']) {
      const page = await app.inject({ url: link, headers: { accept: 'text/html' } });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<div id="root"></div>');
      expect(page.headers['cache-control']).toBe('no-cache');
    }
    for (const missing of ['/assets/nope.js', '/api/nope', '/trpc/nope', '/assets/chunk-0.js.map', '/../package.json'])
      expect((await app.inject({ url: missing })).statusCode).toBe(404);
    expect((await app.inject({ url: '/api/nope' })).headers['content-type']).toContain('application/json');
    expect((await app.inject({ url: '/api/health' })).json()).toEqual({ status: 'ok' });
  });
});
