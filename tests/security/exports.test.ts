import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserDataDocument } from '../../src/shared/schemas/user-data';
import { ok, seedBatch, signUp, type ApiUser } from '../helpers/api';
import { rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';
import { spawnServer, type ServerProcess } from '../helpers/process';

/**
 * Attacks on the export and restore routes, performed against a real server:
 * - spreadsheet formula injection through every text a user controls;
 * - a restore document aimed at another user's rows;
 * - a long-lived API token put into a download link;
 * - the session token of a download link leaking into the server's log.
 */
let server: TestServer;
let owner: ApiUser;
let intruder: ApiUser;

beforeAll(async () => {
  server = await startServer();
  owner = await signUp(server.url);
  intruder = await signUp(server.url);
});
afterAll(async () => {
  await server.close();
});

describe('CSV export', () => {
  it('never hands a spreadsheet a formula, whatever the user typed', async () => {
    const payloads = [
      "=cmd|' /C calc'!A0",
      '+HYPERLINK("http://evil")',
      '-2+3',
      '@SUM(1+1)',
      "'=1",
      "''+1",
      '=1',
      // Full-width forms, which spreadsheets in East Asian locales read as = + - @.
      '\uff1dHYPERLINK("http://evil")',
      '\uff0b1+1',
      '\uff0d2+3',
      '\uff20SUM(1)',
      "'\uff1d1",
    ];
    ok(await owner.post('/api/accounts', { name: '=EVIL()', type: 'checking' }));
    for (const [i, payload] of payloads.entries()) {
      ok(
        await owner.post('/api/transactions', {
          postDate: '2024-05-01',
          description: payload,
          amount: -(i + 1),
          account: '=EVIL()',
          category: `@${payload}`,
        }),
      );
    }
    const res = await fetch(`${server.url}/api/transactions/export.csv?start_date=2024-05-01&end_date=2024-05-01`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    const records = parse((await res.text()).replace(/^\uFEFF/, ''));
    expect(records).toHaveLength(payloads.length + 1);
    for (const record of records.slice(1)) {
      record.forEach((cell, column) => {
        if (column !== 2) expect(cell, `column ${column}: ${cell}`).not.toMatch(/^[=+\-@\t\r＝＋－＠]/);
      });
    }
  });
});

describe('restore', () => {
  it('cannot reach another user’s batch or transaction through the ids in a document', async () => {
    ok(await owner.post('/api/accounts', { name: 'Own', type: 'checking' }));
    const victimTx = ok(
      await owner.post('/api/transactions', {
        postDate: '2024-01-01',
        description: 'victim',
        amount: -1000,
        account: 'Own',
      }),
    ).id;
    const victimBatch = await seedBatch(server.app, owner.userId, null, [victimTx]);
    const doc: UserDataDocument = {
      format: 'budget-tracker',
      version: 1,
      accounts: [],
      categories: [],
      batches: [
        {
          id: victimBatch,
          accountId: null,
          uploadDate: '2024-01-01T00:00:00.000Z',
          transactionCount: 1,
          fileName: 'x.csv',
          dateFormat: null,
        },
      ],
      transactions: [
        {
          id: victimTx,
          postDate: '2024-01-01',
          description: 'mine now',
          amount: -5,
          type: 'debit',
          accountId: null,
          categoryId: null,
          isSplit: false,
          parentId: null,
          splitNote: null,
          batchId: victimBatch,
        },
      ],
      budgets: [],
      envelopes: [],
    };
    const fresh = await signUp(server.url);
    expect((await fresh.post('/api/import', doc)).status).toBe(201);
    // The restored rows are the newcomer's own, under new ids; the owner's are untouched.
    const mine = ok(await fresh.get('/api/transactions?start_date=2024-01-01&end_date=2024-01-01'));
    expect(mine).toHaveLength(1);
    expect(mine[0].id).not.toBe(victimTx);
    expect(mine[0].batchId).not.toBe(victimBatch);
    expect(ok(await owner.get(`/api/transactions/${victimTx}`))).toMatchObject({
      description: 'victim',
      amount: -1000,
      batchId: victimBatch,
    });
    expect(ok(await owner.get(`/api/transactions/batches/${victimBatch}/transactions`))).toHaveLength(1);
    // A part whose parent is the owner's row (not in the document) is refused.
    const other = await signUp(server.url);
    const orphan = await other.post('/api/import', {
      ...doc,
      batches: [],
      transactions: [{ ...doc.transactions[0], id: 777_777, batchId: null, parentId: victimTx }],
    });
    expect(orphan.status).toBe(400);
    expect(orphan.body.error).toContain(`refers to no transaction (${victimTx})`);
  });
});

describe('download links', () => {
  it('refuse the API token in the query, and every route but the downloads ignores access_token', async () => {
    const apiToken = `btapi_${randomBytes(32).toString('base64url')}`;
    ok(await intruder.put('/api/auth/profile', { apiToken, currentPassword: intruder.password }));
    for (const route of ['/api/export?', '/api/transactions/export.csv?start_date=2024-01-01&end_date=2024-01-31&']) {
      expect((await fetch(`${server.url}${route}access_token=${apiToken}`)).status, route).toBe(401);
      expect(
        (await fetch(`${server.url}${route}access_token=${encodeURIComponent(intruder.token)}`)).status,
        route,
      ).toBe(200);
    }
    for (const route of [
      '/api/accounts',
      '/api/auth/me',
      '/api/reports/payees?start_date=2024-01-01&end_date=2024-01-31',
    ]) {
      const sep = route.includes('?') ? '&' : '?';
      expect(
        (await rest(server.url, 'GET', `${route}${sep}access_token=${encodeURIComponent(intruder.token)}`)).status,
        route,
      ).toBe(401);
    }
  });
});

describe('the request log', () => {
  let server: ServerProcess | undefined;
  let dir: string | undefined;
  let log = '';
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('never shows the access token of a download link', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'bt-log-'));
    // The real entry point in its own process (its own logger); its address is read from its "listening" line, however
    // long a busy machine takes to start it.
    server = spawnServer({ DATA_DIR: dir, LOG_LEVEL: 'info' });
    server.child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    server.child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const url = await server.url;
    const user = await signUp(url);
    const res = await fetch(`${url}/api/export?access_token=${encodeURIComponent(user.token)}`);
    expect(res.status).toBe(200);
    await expect.poll(() => log.includes('/api/export?access_token=[REDACTED]'), { timeout: 10_000 }).toBe(true);
    expect(log).not.toContain(user.token);
    expect(log).not.toContain(user.token.split('.')[2]);
  });
});
