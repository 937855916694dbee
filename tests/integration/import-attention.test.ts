import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { BANK_LAYOUTS_DIR, BANK_STATEMENTS_DIR } from '../helpers/fixture-manifests';
import { rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

/**
 * What an import preview must say before anything is stored: a file read mostly as money in for a
 * checking or credit account (with Flip signs offered), lines that will not be imported, a file
 * it cannot read by itself (a mapping is asked for), and a file of several accounts' statements
 * (each listed, each sent where the person chose).
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

async function userWith(accounts: { name: string; type: string }[]) {
  const user = await signUp(server.url);
  for (const account of accounts) ok(await user.post('/api/accounts', account));
  return user;
}

function upload(user: ApiUser, file: string | Uint8Array, fields: Record<string, string>) {
  const body = new FormData();
  body.append('file', new Blob([file as BlobPart]), 'statement');
  for (const [key, value] of Object.entries(fields)) body.append(key, value);
  return rest(server.url, 'POST', '/api/upload', { token: user.token, body });
}

const cardFile = readFileSync(path.join(BANK_LAYOUTS_DIR, 'us-discover-card-charges-positive.csv'));

describe('a file read mostly as money in', () => {
  it('a card statement with positive charges in a credit account is previewed with a prominent warning that offers to flip', async () => {
    const user = await userWith([{ name: 'Visa', type: 'credit' }]);
    const preview = await upload(user, cardFile, { account: 'Visa', dryRun: 'true' });
    expect(preview.status).toBe(200);
    expect(preview.body.attention).toEqual([
      expect.objectContaining({ code: 'MOSTLY_MONEY_IN', offerFlip: true, message: expect.stringContaining('4 of 5') }),
    ]);
    expect(preview.body.warnings[0]).toContain('flip the signs');

    const flipped = await upload(user, cardFile, { account: 'Visa', dryRun: 'true', flipAmounts: 'true' });
    expect(flipped.body.attention).toEqual([]);
    expect(flipped.body.rows.map((r: { amount: number }) => r.amount)).toEqual([-5412, -4180, 25000, -1549, -12833]);
  });

  it('a savings account takes money in without a word', async () => {
    const user = await userWith([{ name: 'Savings', type: 'savings' }]);
    const preview = await upload(user, cardFile, { account: 'Savings', dryRun: 'true' });
    expect(preview.body.attention).toEqual([]);
  });

  it('a headerless file of paid-out and paid-in columns imports every row with its sign', async () => {
    const user = await userWith([{ name: 'Current', type: 'checking' }]);
    const file = readFileSync(path.join(BANK_LAYOUTS_DIR, 'uk-headerless-debit-credit-balance.csv'));
    const preview = await upload(user, file, { account: 'Current', dryRun: 'true' });
    expect(preview.body.columns.map((c: { index: number; role: string }) => [c.index, c.role])).toEqual([
      [0, 'date'],
      [1, 'description'],
      [2, 'debit'],
      [3, 'credit'],
    ]);
    expect(preview.body.attention).toEqual([]);
    const imported = await upload(user, file, { account: 'Current' });
    expect(imported.status).toBe(201);
    expect(imported.body.imported).toBe(6);
  });
});

describe('lines that will not be imported', () => {
  it('are a prominent warning naming them, never a calm note', async () => {
    const user = await userWith([{ name: 'Current', type: 'checking' }]);
    const csv = 'Date,Description,Amount\n2024-01-02,Shop,-5.00\n2024-01-03,Closing balance,100.00\n2024-01-04,,\n';
    const preview = await upload(user, csv, { account: 'Current', dryRun: 'true' });
    expect(preview.body.attention).toEqual([
      expect.objectContaining({ code: 'ROWS_SKIPPED', message: expect.stringContaining('line 3') }),
    ]);
  });

  it('a file whose only row holds a control character names that row', async () => {
    const user = await userWith([{ name: 'Current', type: 'checking' }]);
    const preview = await upload(user, 'Date,Description,Amount\n2024-01-02,Sh\u0007op,-5.00\n', {
      account: 'Current',
      dryRun: 'true',
    });
    expect(preview.status).toBe(400);
    expect(preview.body.error).toContain('line 2');
    expect(preview.body.error).toContain('control characters');
  });
});

describe('a file the reader cannot tell', () => {
  it('asks for the mapping with a sample instead of finding no transactions', async () => {
    const user = await userWith([{ name: 'Current', type: 'checking' }]);
    const csv = 'Date,Description,Amount\nShop,2024-01-02,-5.00\nCafe,2024-01-03,-3.00\n';
    const preview = await upload(user, csv, { account: 'Current', dryRun: 'true' });
    expect(preview.status).toBe(422);
    expect(preview.body).toMatchObject({ code: 'NEEDS_MAPPING', needsMapping: true });
    expect(preview.body.sample.length).toBeGreaterThan(0);
  });
});

describe('text a reader must not store as it is', () => {
  it('strips bidirectional overrides with a warning, and says when a file was not UTF-8', async () => {
    const user = await userWith([{ name: 'Current', type: 'checking' }]);
    const preview = await upload(user, 'Date,Description,Amount\n2024-01-02,Shop \u202egpj.exe,-5.00\n', {
      account: 'Current',
      dryRun: 'true',
    });
    expect(preview.body.rows[0].description).toBe('Shop gpj.exe');
    expect(preview.body.warnings.join(' ')).toContain('override');

    const latin = new Uint8Array([
      ...Buffer.from('Date,Description,Amount\n2024-01-02,Caf'),
      0xe9,
      ...Buffer.from(',-5.00\n'),
    ]);
    const read = await upload(user, latin, { account: 'Current', dryRun: 'true' });
    expect(read.body.rows[0].description).toBe('Café');
    expect(read.body.warnings.join(' ')).toContain('line 2');
    expect(read.body.warnings.join(' ')).toContain('Windows-1252');
  });
});

describe('one file, several accounts', () => {
  const sevenAccounts = path.join(BANK_STATEMENTS_DIR, 'ofx102-us-credit-union-7-accounts-bom-crlf.ofx');
  it.skipIf(!existsQuietly(sevenAccounts))('lists each statement and sends each where it is told', async () => {
    const user = await userWith([{ name: 'Main', type: 'checking' }]);
    const file = readFileSync(sevenAccounts);
    const preview = await upload(user, file, { account: 'Main', dryRun: 'true' });
    const statements = preview.body.statements as { index: number; account: string; rows: number }[];
    expect(statements.length).toBe(7);
    const total = statements.reduce((sum, s) => sum + s.rows, 0);
    const [toNew, skipped] = statements.filter((s) => s.rows > 0);
    const routes = [
      { statement: toNew.index, account: 'Share Savings', type: 'savings' },
      { statement: skipped.index, account: null },
    ];
    const imported = await upload(user, file, { account: 'Main', statements: JSON.stringify(routes) });
    expect(imported.status).toBe(201);
    expect(imported.body.imported).toBe(total - skipped.rows);
    expect(imported.body.batches).toEqual([
      expect.objectContaining({ account: 'Main', imported: total - skipped.rows - toNew.rows }),
      expect.objectContaining({ account: 'Share Savings', imported: toNew.rows }),
    ]);
    const accounts = ok<{ name: string; type: string }[]>(await user.get('/api/accounts'));
    expect(accounts).toContainEqual(expect.objectContaining({ name: 'Share Savings', type: 'savings' }));
  });
});

function existsQuietly(file: string): boolean {
  try {
    readFileSync(file);
    return true;
  } catch {
    return false;
  }
}
