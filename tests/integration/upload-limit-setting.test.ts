import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, ok, type ApiUser } from '../helpers/api';
import { startServer, type TestServer } from '../helpers/server';

/** POST /api/upload honours UPLOAD_LIMIT_BYTES, not a fixed size. */
describe('the upload reads its limit from the configuration', () => {
  let server: TestServer;
  let user: ApiUser;

  beforeAll(async () => {
    server = await startServer({ UPLOAD_LIMIT_BYTES: '2048' });
    user = await signUp(server.url);
    ok(await user.post('/api/accounts', { name: 'Checking', type: 'checking' }));
  });

  afterAll(async () => {
    await server?.close();
  });

  function csv(rows: number, payee: string): string {
    const lines = ['Date,Description,Amount'];
    for (let i = 0; i < rows; i += 1)
      lines.push(`2026-01-${String((i % 28) + 1).padStart(2, '0')},${payee} ${i},-3.50`);
    return `${lines.join('\n')}\n`;
  }

  function uploadForm(file: string, name: string): FormData {
    const body = new FormData();
    body.append('file', new Blob([file]), name);
    body.append('account', 'Checking');
    return body;
  }

  it('refuses a file over UPLOAD_LIMIT_BYTES with 413 and the limit in words', async () => {
    const big = csv(200, 'Coffee shop');
    expect(big.length).toBeGreaterThan(2048);
    const res = await user.post('/api/upload', uploadForm(big, 'big.csv'));
    expect(res.status).toBe(413);
    expect(res.body.message).toMatch(/larger than the upload limit/);
  });

  it('imports a file within the limit', async () => {
    const small = csv(3, 'Bakery');
    expect(small.length).toBeLessThan(2048);
    const res = await user.post('/api/upload', uploadForm(small, 'small.csv'));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ imported: 3 });
  });
});
