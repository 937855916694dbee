import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

/**
 * The import's bulk write stores every text exactly as read, on both databases (PostgreSQL sends
 * the rows as array literals: quotes, backslashes, braces, commas and the word NULL must survive),
 * and a file larger than one bulk statement goes in whole.
 */
const AWKWARD = [
  'He said "hi"',
  'C:\\path\\to\\shop',
  'ends with backslash \\',
  '{braces}, and commas',
  'NULL',
  'null',
  '  leading and trailing  ',
  'Café Zürich – ½ price 🍕',
  "O'Brien's",
  'semi;colon | pipe',
];

function csvField(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

let server: TestServer;
let user: ApiUser;
beforeAll(async () => {
  server = await startServer({ UPLOAD_LIMIT_BYTES: String(8 * 1024 * 1024) });
  user = await signUp(server.url);
});
afterAll(async () => {
  await server.close();
});

function upload(csv: string, account: string) {
  const body = new FormData();
  body.append('file', new Blob([csv]), 'rows.csv');
  body.append('account', account);
  body.append('transactionType', 'auto');
  return rest(server.url, 'POST', '/api/upload', { token: user.token, body });
}

describe('bulk import writes', () => {
  it('store awkward descriptions and categories exactly', async () => {
    ok(await user.post('/api/accounts', { name: 'Awkward', type: 'checking' }));
    const lines = [
      'Date,Description,Amount,Category',
      ...AWKWARD.map(
        (text, i) =>
          `2024-03-${String(i + 1).padStart(2, '0')},${csvField(text)},-${i + 1}.00,${csvField(`Cat ${i} ${text}`.trim())}`,
      ),
    ];
    const res = await upload(lines.join('\n'), 'Awkward');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const rows = await server.sql<{ description: string; amount: number; name: string }>(
      `select t.description, t.amount, c.name from "transaction" t join category c on c.id = t.category_id where t.user_id = ? and t.batch_id = ? order by t.post_date`,
      [user.userId, res.body.batchId],
    );
    // The CSV reader trims cells; everything else arrives as written.
    expect(rows.map((r) => r.description)).toEqual(AWKWARD.map((text) => text.trim()));
    expect(rows.map((r) => Number(r.amount))).toEqual(AWKWARD.map((_, i) => -(i + 1) * 100));
    expect(rows.map((r) => r.name)).toEqual(AWKWARD.map((text, i) => `Cat ${i} ${text}`.trim()));
  });

  it('writes a file larger than one bulk statement whole, in order', async () => {
    ok(await user.post('/api/accounts', { name: 'Large', type: 'checking' }));
    const count = 25_003;
    const lines = ['Date,Description,Amount'];
    for (let i = 0; i < count; i++)
      lines.push(`2024-0${(i % 9) + 1}-15,Row ${i},-${(i % 500) + 1}.${String(i % 100).padStart(2, '0')}`);
    const res = await upload(lines.join('\n'), 'Large');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.imported).toBe(count);
    const [stored] = await server.sql<{ n: number; total: number; distinct_descriptions: number }>(
      `select count(*) as n, sum(amount) as total, count(distinct description) as distinct_descriptions from "transaction" where batch_id = ?`,
      [res.body.batchId],
    );
    let expected = 0;
    for (let i = 0; i < count; i++) expected -= ((i % 500) + 1) * 100 + (i % 100);
    expect([Number(stored.n), Number(stored.total), Number(stored.distinct_descriptions)]).toEqual([
      count,
      expected,
      count,
    ]);
  });
});

describe.skipIf(process.env.TEST_DATABASE === 'postgresql')("SQLite's page cache during an import", () => {
  const cacheSize = async () => Number((await server.sql<{ cache_size: number }>('pragma cache_size'))[0]?.cache_size);
  const rows = (count: number, last = '') => {
    const lines = ['Date,Description,Amount'];
    for (let i = 0; i < count; i++)
      lines.push(`2024-05-${String((i % 28) + 1).padStart(2, '0')},Cache ${i},-${(i % 90) + 1}.00`);
    if (last) lines.push(last);
    return lines.join('\n');
  };

  it('is the same after an import, also after one that fails on its last row', async () => {
    const before = await cacheSize();
    ok(await user.post('/api/accounts', { name: 'Cache', type: 'checking' }));
    expect((await upload(rows(20_000), 'Cache')).status).toBe(201);
    expect(await cacheSize()).toBe(before);
    // An amount over the limit on the last row: the import rolls back, and the cache is given back all the same.
    const failed = await upload(rows(3000, '2024-06-01,Too much,-999999999999999.00'), 'Cache');
    expect(failed.status, JSON.stringify(failed.body)).toBe(422);
    expect(await cacheSize()).toBe(before);
  });
});
