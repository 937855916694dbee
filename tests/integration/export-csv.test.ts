import { withUserScope } from '../../src/server/db/sql';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { readsOf } from '../../src/server/db/transaction-reads';
import { TRANSACTION_CSV_COLUMNS } from '../../src/shared/export/transactions-csv';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

/**
 * GET /api/transactions/export.csv: the search's rows as RFC 4180 CSV, and back in through the
 * CSV import into an empty account with the same count, dates, cents and descriptions.
 */
let server: TestServer;
let user: ApiUser;
let parentId: number;

// Descriptions a spreadsheet or a naive CSV writer would get wrong.
const TRICKY = [
  ['2024-01-02', 'Coffee, large', -450],
  ['2024-01-03', 'The "Best" Diner', -2599],
  ['2024-01-04', '=HYPERLINK("http://evil.example","click")', -100],
  ['2024-01-05', '+44 20 7946 0000 call', -1234],
  ['2024-01-06', '-5% discount', 350],
  ['2024-01-07', '@SUM(A1:A9)', -1],
  ['2024-01-08', "'=already quoted", -2],
  ['2024-01-09', 'Café Crème – Zürich 東京', -999],
  ['2024-01-10', 'Salary ACME', 250000],
  ['2024-01-10', 'Salary ACME', 250000], // the same row twice is two rows
  ['2024-01-11', 'Tiny', 5],
  ['2024-01-12', 'Semi; colon, comma "and" quote', -77],
] as const;

beforeAll(async () => {
  server = await startServer();
  user = await signUp(server.url);
  ok(await user.post('/api/accounts', { name: 'Checking', type: 'checking' }));
  ok(await user.post('/api/accounts', { name: 'Empty', type: 'checking' }));
  for (const [postDate, description, amount] of TRICKY) {
    ok(
      await user.post('/api/transactions', {
        postDate,
        description,
        amount,
        account: 'Checking',
        category: amount > 0 ? 'Income' : '=cmd|calc',
      }),
    );
  }
  parentId = ok(
    await user.post('/api/transactions', {
      postDate: '2024-01-20',
      description: 'Split me',
      amount: -1000,
      account: 'Checking',
      category: 'Misc',
    }),
  ).id;
  ok(
    await user.post(`/api/transactions/${parentId}/split`, {
      splits: [
        { amount: -600, category: 'A' },
        { amount: -400, category: 'B' },
      ],
    }),
  );
  ok(
    await user.post('/api/transactions', {
      postDate: '2024-02-01',
      description: 'Next month',
      amount: -5,
      account: 'Checking',
    }),
  );
});
afterAll(async () => {
  await server.close();
});

const RANGE = 'start_date=2024-01-01&end_date=2024-01-31';

/** Decodes keeping the byte order mark (TextDecoder drops it by default). */
const utf8 = (bytes: Uint8Array) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);

async function download(query: string, token: string | null = user.token) {
  const res = await fetch(`${server.url}/api/transactions/export.csv?${query}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe('GET /api/transactions/export.csv', () => {
  it('is UTF-8 CSV with a byte order mark, CRLF records, the named columns and the search’s rows in its order', async () => {
    const res = await download(RANGE);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      'attachment; filename="transactions-2024-01-01-to-2024-01-31.csv"',
    );
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect([...res.bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = utf8(res.bytes).slice(1);
    expect(text.startsWith('Date,Description,Amount,Category,Type,Account,Split,Split of,Batch,ID\r\n')).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    const records = parse(text, { bom: false });
    expect(records[0]).toEqual([...TRANSACTION_CSV_COLUMNS]);
    const searched = ok<{ id: number; postDate: string; amount: number; parentTransactionId: number | null }[]>(
      await user.get(`/api/transactions?${RANGE}`),
    );
    expect(records).toHaveLength(searched.length + 1);
    expect(records.slice(1).map((r) => r[0])).toEqual(searched.map((t) => t.postDate));
    expect(records.slice(1).map((r) => r[7])).toEqual(
      searched.map((t) => (t.parentTransactionId === null ? '' : String(t.parentTransactionId))),
    );
    expect(records.slice(1).map((r) => r[9])).toEqual(searched.map((t) => String(t.id)));
  });

  it('writes amounts as decimals with a dot and guards formula cells with an apostrophe (never the amount’s minus)', async () => {
    const text = utf8((await download(RANGE)).bytes).slice(1);
    const records = parse(text);
    const byDescription = new Map(records.slice(1).map((r) => [r[1], r]));
    expect(byDescription.get('Coffee, large')?.slice(0, 6)).toEqual([
      '2024-01-02',
      'Coffee, large',
      '-4.50',
      "'=cmd|calc",
      'debit',
      'Checking',
    ]);
    expect(byDescription.get('The "Best" Diner')?.[2]).toBe('-25.99');
    expect(byDescription.has('\'=HYPERLINK("http://evil.example","click")')).toBe(true);
    expect(byDescription.has("'+44 20 7946 0000 call")).toBe(true);
    expect(byDescription.get("'-5% discount")?.[2]).toBe('3.50');
    expect(byDescription.has("'@SUM(A1:A9)")).toBe(true);
    expect(byDescription.has("''=already quoted")).toBe(true);
    expect(byDescription.get('Tiny')?.[2]).toBe('0.05');
    expect(byDescription.get('Salary ACME')?.[3]).toBe('Income');
    expect(byDescription.get('Café Crème – Zürich 東京')?.[2]).toBe('-9.99');
    expect(byDescription.get('Semi; colon, comma "and" quote')?.[2]).toBe('-0.77');
    // No cell but Amount starts with a formula character.
    for (const record of records.slice(1)) {
      record.forEach((cell, i) => {
        if (i !== 2) expect(cell, cell).not.toMatch(/^[=+\-@\t\r]/);
      });
    }
    // A raw quote is doubled inside a quoted field (RFC 4180).
    expect(text).toContain('"The ""Best"" Diner"');
  });

  it('writes each amount with its account’s currency’s decimals: none for yen, three for dinars', async () => {
    const other = await signUp(server.url);
    ok(await other.post('/api/accounts', { name: 'Yen', type: 'checking', currency: 'JPY' }));
    ok(await other.post('/api/accounts', { name: 'Dinar', type: 'checking', currency: 'BHD' }));
    ok(await other.post('/api/accounts', { name: 'Euro', type: 'checking', currency: 'EUR' }));
    for (const [account, description, amount] of [
      ['Yen', 'Sushi', -1500],
      ['Yen', 'Refund', 7],
      ['Dinar', 'Tea', -1234],
      ['Euro', 'Bread', -250],
    ] as const)
      ok(await other.post('/api/transactions', { account, description, amount, postDate: '2024-01-05' }));
    const records = parse(utf8((await download(RANGE, other.token)).bytes).slice(1));
    const amounts = new Map(records.slice(1).map((r) => [r[1], r[2]]));
    expect(Object.fromEntries(amounts)).toEqual({ Sushi: '-1500', Refund: '7', Tea: '-1.234', Bread: '-2.50' });
  });

  it('takes the search’s filters', async () => {
    const text = utf8((await download(`${RANGE}&categories=a,b&counted=true`)).bytes).slice(1);
    const records = parse(text);
    // The parts matched; their original comes along at the end (marked parent), so "Split of" names a row of the file.
    expect(records.slice(1).map((r) => [r[1], r[2], r[3], r[6], r[7], r[9]])).toEqual([
      ['Split me', '-4.00', 'B', 'part', String(parentId), expect.any(String)],
      ['Split me', '-6.00', 'A', 'part', String(parentId), expect.any(String)],
      ['Split me', '-10.00', 'Misc', 'parent', '', String(parentId)],
    ]);
    const bad = await download('start_date=2024-01-01');
    expect(bad.status).toBe(400);
    expect(JSON.parse(utf8(bad.bytes)).error).toContain('end_date');
    const none = utf8((await download('start_date=1990-01-01&end_date=1990-12-31')).bytes);
    expect(none).toBe('\uFEFFDate,Description,Amount,Category,Type,Account,Split,Split of,Batch,ID\r\n');
  });

  it('marks originals and parts in the Split column, every "Split of" names an ID of the file, and a sum without parents is the total', async () => {
    for (const query of [RANGE, `${RANGE}&categories=A`, `${RANGE}&min_amount=5.5&max_amount=6.5`]) {
      const records: string[][] = parse(utf8((await download(query)).bytes).slice(1));
      const rows = records.slice(1);
      const ids = new Set(rows.map((r) => r[9]));
      const partsOf = rows.filter((r) => r[6] === 'part');
      expect(partsOf.length, query).toBeGreaterThan(0);
      for (const part of partsOf) expect(ids.has(part[7]), `${query}: ${part[7]}`).toBe(true);
      expect(rows.filter((r) => r[7] !== '').every((r) => r[6] === 'part')).toBe(true);
      expect(rows.filter((r) => r[6] === 'parent').map((r) => r[9])).toEqual([String(parentId)]);
    }
    // The whole month: the sum of Amount without the parent rows is the month's total (parts hold the split money).
    const records: string[][] = parse(utf8((await download(RANGE)).bytes).slice(1));
    const cents = (r: string[]) => Math.round(Number(r[2]) * 100);
    const withoutParents = records
      .slice(1)
      .filter((r) => r[6] !== 'parent')
      .reduce((sum, r) => sum + cents(r), 0);
    const searched = ok<{ amount: number; isSplit: boolean }[]>(await user.get(`/api/transactions?${RANGE}`));
    expect(withoutParents).toBe(searched.filter((t) => !t.isSplit).reduce((sum, t) => sum + t.amount, 0));
  });

  it('imported into an empty account gives back the same count, dates, cents and descriptions', async () => {
    const exported = (await download(RANGE)).bytes;
    const body = new FormData();
    body.append('file', new Blob([exported]), 'export.csv');
    body.append('account', 'Empty');
    body.append('transactionType', 'debit');
    const imported = await rest(server.url, 'POST', '/api/upload', { token: user.token, body });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    const original = ok<{ postDate: string; amount: number; description: string }[]>(
      await user.get(`/api/transactions?${RANGE}&account=Checking`),
    );
    const copy = ok<{ postDate: string; amount: number; description: string }[]>(
      await user.get(`/api/transactions?${RANGE}&account=Empty`),
    );
    const shape = (rows: typeof original) => rows.map((r) => `${r.postDate}|${r.amount}|${r.description}`).sort();
    expect(copy).toHaveLength(original.length);
    // Exactly the same (descriptions hold no line breaks or other control characters: the API refuses them).
    expect(shape(copy)).toEqual(shape(original));
  });

  it('reads page after page in the search’s order, rows of one day split across pages included', async () => {
    for (const pageSize of [1, 2, 3, 5, 100]) {
      const pages: number[][] = [];
      for await (const page of readsOf(server.app.orm.em.fork()).exportPages(
        user.userId,
        { startDate: '2024-01-01', endDate: '2024-12-31' },
        pageSize,
      )) {
        expect(page.length).toBeLessThanOrEqual(pageSize);
        pages.push(page.map((t) => t.id));
      }
      // The whole list in one read, in the user's scope as the app reads (row-level security on PostgreSQL).
      const all = await withUserScope(server.app.orm.em.fork(), user.userId, (em) =>
        readsOf(em).page(user.userId, { startDate: '2024-01-01', endDate: '2024-12-31' }),
      );
      expect(pages.flat(), `page size ${pageSize}`).toEqual(all.rows.map((t) => t.id));
    }
  });

  it('can be downloaded by a browser link with the session’s access token, never with the API token', async () => {
    const viaQuery = await download(`${RANGE}&access_token=${encodeURIComponent(user.token)}`, null);
    expect(viaQuery.status).toBe(200);
    expect(utf8(viaQuery.bytes)).toContain('Coffee, large');
    expect((await download(RANGE, null)).status).toBe(401);
    expect((await download(`${RANGE}&access_token=not-a-token`, null)).status).toBe(401);
    const apiToken = `btapi_${randomBytes(32).toString('base64url')}`;
    ok(await user.put('/api/auth/profile', { apiToken, currentPassword: user.password }));
    expect((await download(RANGE, apiToken)).status).toBe(200);
    const apiInQuery = await download(`${RANGE}&access_token=${apiToken}`, null);
    expect(apiInQuery.status).toBe(401);
    expect(JSON.parse(utf8(apiInQuery.bytes)).error).toContain('Authorization');
    // Only download routes take a token from the query.
    expect(
      (await rest(server.url, 'GET', `/api/transactions?${RANGE}&access_token=${encodeURIComponent(user.token)}`))
        .status,
    ).toBe(401);
  });
});
