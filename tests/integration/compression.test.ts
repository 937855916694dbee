import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../scripts/precompress';
import { registerUser } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

/**
 * Weight on the wire: the built client's files go out as the .br/.gz copies the build wrote
 * (scripts/precompress.ts, the same function the Vite build runs), JSON answers of both doors are
 * compressed on the fly, and no source map is ever served. The client here is a small stand-in
 * written to a temporary folder (CLIENT_DIR), so the test needs no build.
 */
const JS = `export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ id: i, name: `row ${i}` })))};\n`;
const CSS = `${Array.from({ length: 200 }, (_, i) => `.c${i} { color: #${(i * 4111).toString(16).padStart(6, '0').slice(0, 6)}; }`).join('\n')}\n`;
const HTML = `<!doctype html><html lang="en"><head><title>Budget Tracker</title><script type="module" src="/assets/app-1.js"></script><link rel="stylesheet" href="/assets/app-1.css"></head><body><div id="root"></div>${'<!-- padding -->'.repeat(100)}</body></html>`;

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET that shows the bytes as sent (fetch would undo the compression). */
function rawGet(url: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function decoded(res: Raw): string {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(res.body).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(res.body).toString('utf8');
  return res.body.toString('utf8');
}

let server: TestServer;
let clientDir: string;
let token: string;

beforeAll(async () => {
  clientDir = mkdtempSync(path.join(os.tmpdir(), 'bt-client-'));
  mkdirSync(path.join(clientDir, 'assets'));
  writeFileSync(path.join(clientDir, 'index.html'), HTML);
  writeFileSync(path.join(clientDir, 'assets', 'app-1.js'), JS);
  writeFileSync(path.join(clientDir, 'assets', 'app-1.css'), CSS);
  expect(precompressDir(clientDir)).toHaveLength(3);
  // A map a careless build left behind: never served.
  writeFileSync(path.join(clientDir, 'assets', 'app-1.js.map'), '{"version":3,"sources":["secret.ts"]}');
  server = await startServer({ CLIENT_DIR: clientDir });
  token = (await registerUser(server.url)).accessToken;
});

afterAll(async () => {
  await server?.close();
  rmSync(clientDir, { recursive: true, force: true });
});

const STATIC = [
  { path: '/', file: 'index.html', type: 'text/html', text: HTML },
  { path: '/transactions?start=2024-01-01', file: 'index.html', type: 'text/html', text: HTML },
  { path: '/assets/app-1.js', file: 'assets/app-1.js', type: 'javascript', text: JS },
  { path: '/assets/app-1.css', file: 'assets/app-1.css', type: 'text/css', text: CSS },
];

describe('compression', () => {
  for (const encoding of ['br', 'gzip'] as const) {
    for (const file of STATIC) {
      it(`sends ${file.path} as ${encoding} to a client that takes it`, async () => {
        const res = await rawGet(`${server.url}${file.path}`, { 'accept-encoding': encoding === 'br' ? 'gzip, deflate, br' : 'gzip' });
        expect(res.status).toBe(200);
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(String(res.headers['content-type'])).toContain(file.type);
        expect(res.body.length).toBeLessThan(Buffer.byteLength(file.text));
        expect(decoded(res)).toBe(file.text);
        // The copy the build wrote, byte for byte: not compressed again on each request.
        expect(res.body.equals(readFileSync(path.join(clientDir, `${file.file}.${encoding === 'br' ? 'br' : 'gz'}`)))).toBe(true);
      });
    }

    it(`compresses JSON answers with ${encoding}: REST and tRPC`, async () => {
      const accept = { 'accept-encoding': encoding };
      const openapi = await rawGet(`${server.url}/api/openapi.json`, accept);
      expect(openapi.status).toBe(200);
      expect(openapi.headers['content-encoding']).toBe(encoding);
      expect(JSON.parse(decoded(openapi)).openapi).toMatch(/^3\./);

      const input = encodeURIComponent(JSON.stringify({ startDate: '2024-01-01', endDate: '2024-12-31' }));
      const procedures = Array.from({ length: 12 }, () => 'transactions.list').join(',');
      const batchInput = encodeURIComponent(
        JSON.stringify(Object.fromEntries(Array.from({ length: 12 }, (_, i) => [i, { startDate: '2024-01-01', endDate: '2024-12-31' }]))),
      );
      const single = await rawGet(`${server.url}/trpc/transactions.list?input=${input}`, { ...accept, authorization: `Bearer ${token}` });
      expect(single.status).toBe(200);
      expect(JSON.parse(decoded(single))).toEqual({ result: { data: [] } });
      const batch = await rawGet(`${server.url}/trpc/${procedures}?batch=1&input=${batchInput}`, { ...accept, authorization: `Bearer ${token}` });
      expect(batch.status).toBe(200);
      expect(batch.headers['content-encoding']).toBe(encoding);
      expect(JSON.parse(decoded(batch))).toHaveLength(12);
    });
  }

  it('sends files as they are to a client that takes no compression', async () => {
    const res = await rawGet(`${server.url}/assets/app-1.js`, { 'accept-encoding': 'identity' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.toString('utf8')).toBe(JS);
  });

  it('never serves a source map', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const res = await rawGet(`${server.url}/assets/app-1.js.map`, { 'accept-encoding': encoding });
      expect(res.status).toBe(404);
      expect(decoded(res)).not.toContain('secret.ts');
    }
  });
});
