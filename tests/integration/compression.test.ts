import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../scripts/precompress';
import { LARGE_ANSWER_BYTES } from '../../src/server/http/compression';
import { registerUser, rest } from '../helpers/http';
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
  // A text file with no precompressed copy beside it (added after the build): compressed as it streams out.
  writeFileSync(path.join(clientDir, 'assets', 'late-1.css'), CSS);
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
        const res = await rawGet(`${server.url}${file.path}`, {
          'accept-encoding': encoding === 'br' ? 'gzip, deflate, br' : 'gzip',
        });
        expect(res.status).toBe(200);
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(String(res.headers['content-type'])).toContain(file.type);
        expect(res.body.length).toBeLessThan(Buffer.byteLength(file.text));
        expect(decoded(res)).toBe(file.text);
        // The copy the build wrote, byte for byte: not compressed again on each request.
        expect(
          res.body.equals(readFileSync(path.join(clientDir, `${file.file}.${encoding === 'br' ? 'br' : 'gz'}`))),
        ).toBe(true);
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
        JSON.stringify(
          Object.fromEntries(
            Array.from({ length: 12 }, (_, i) => [i, { startDate: '2024-01-01', endDate: '2024-12-31' }]),
          ),
        ),
      );
      const single = await rawGet(`${server.url}/trpc/transactions.list?input=${input}`, {
        ...accept,
        authorization: `Bearer ${token}`,
      });
      expect(single.status).toBe(200);
      expect(JSON.parse(decoded(single))).toEqual({ result: { data: [] } });
      const batch = await rawGet(`${server.url}/trpc/${procedures}?batch=1&input=${batchInput}`, {
        ...accept,
        authorization: `Bearer ${token}`,
      });
      expect(batch.status).toBe(200);
      expect(batch.headers['content-encoding']).toBe(encoding);
      expect(JSON.parse(decoded(batch))).toHaveLength(12);
    });
  }

  it('compresses large JSON answers of both doors in one pass (br, gzip, x-gzip, *) and sends them whole to a client that takes none', async () => {
    const big = await registerUser(server.url);
    const auth = { authorization: `Bearer ${big.accessToken}` };
    expect(
      (
        await rest(server.url, 'POST', '/api/accounts', {
          token: big.accessToken,
          body: { name: 'Big', type: 'checking' },
        })
      ).status,
    ).toBe(201);
    const lines = ['Date,Description,Amount'];
    for (let i = 0; i < 1500; i += 1)
      lines.push(
        `2024-0${(i % 9) + 1}-${String((i % 28) + 1).padStart(2, '0')},Large answer row ${i} café,-${i + 1}.25`,
      );
    const form = new FormData();
    form.append('file', new Blob([lines.join('\n')]), 'big.csv');
    form.append('account', 'Big');
    expect((await rest(server.url, 'POST', '/api/upload', { token: big.accessToken, body: form })).status).toBe(201);

    const input = encodeURIComponent(JSON.stringify({ startDate: '2024-01-01', endDate: '2024-12-31' }));
    for (const url of [
      `${server.url}/api/transactions?start_date=2024-01-01&end_date=2024-12-31`,
      `${server.url}/trpc/transactions.list?input=${input}`,
    ]) {
      const plain = await rawGet(url, { ...auth, 'accept-encoding': 'identity' });
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.length).toBeGreaterThanOrEqual(LARGE_ANSWER_BYTES);
      const text = plain.body.toString('utf8');
      expect(text).toContain('Large answer row 1499 café');
      for (const [accept, encoding] of [
        ['gzip, deflate, br', 'br'],
        ['gzip', 'gzip'],
        ['x-gzip', 'gzip'],
        ['*', 'gzip'],
        ['br;q=0, gzip;q=0.5', 'gzip'],
      ] as const) {
        const res = await rawGet(url, { ...auth, 'accept-encoding': accept });
        expect(res.status).toBe(200);
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
        expect(String(res.headers['content-type'])).toContain('application/json');
        expect(Number(res.headers['content-length'])).toBe(res.body.length);
        expect(res.body.length).toBeLessThan(plain.body.length / 4);
        expect(decoded(res)).toBe(text);
      }
      const refused = await rawGet(url, { ...auth, 'accept-encoding': 'gzip', 'x-no-compression': '1' });
      expect(refused.headers['content-encoding']).toBeUndefined();
      expect(refused.body.toString('utf8')).toBe(text);
    }
    // An error answer of tRPC keeps its status through the hook.
    const missing = await rawGet(
      `${server.url}/trpc/budgets.lineItems?input=${encodeURIComponent(JSON.stringify({ budgetId: 999999 }))}`,
      {
        ...auth,
        'accept-encoding': 'br',
      },
    );
    expect(missing.status).toBe(404);
    expect(JSON.parse(decoded(missing)).error.data.httpStatus).toBe(404);
  });

  it('compresses a text file the build did not precompress as it streams out', async () => {
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const res = await rawGet(`${server.url}/assets/late-1.css`, { 'accept-encoding': accept });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
      expect(res.body.length).toBeLessThan(Buffer.byteLength(CSS) / 2);
      expect(decoded(res)).toBe(CSS);
    }
    const plain = await rawGet(`${server.url}/assets/late-1.css`, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString('utf8')).toBe(CSS);
  });

  it('sends JSON answers under 1 KiB as they are, and larger ones of the REST door compressed', async () => {
    const small = await rawGet(`${server.url}/api/health`, { 'accept-encoding': 'br' });
    expect(small.status).toBe(200);
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString('utf8'))).toMatchObject({ status: 'ok' });
    const medium = await rawGet(`${server.url}/api/openapi.json`, { 'accept-encoding': 'br' });
    const plain = await rawGet(`${server.url}/api/openapi.json`, { 'accept-encoding': 'identity' });
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(medium.headers['content-encoding']).toBe('br');
    expect(Number(medium.headers['content-length'])).toBe(medium.body.length);
    expect(decoded(medium)).toBe(plain.body.toString('utf8'));
  });

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
