import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, signUp, type ApiUser } from '../helpers/api';
import {
  BANK_CSV_DIR,
  BANK_LAYOUTS_DIR,
  BANK_STATEMENTS_DIR,
  bankCsvEntries,
  bankLayoutEntries,
  manifestOptions,
  statementEntries,
  statementOptions,
} from '../helpers/fixture-manifests';
import { rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

/**
 * The real bank files (CSV exports and OFX/QFX, QIF, CAMT.053 statements) imported through
 * POST /api/upload on the database under test (SQLite in `integration`, PostgreSQL in
 * `integration-pg`): each stores exactly its manifest's rows and sum, and a second upload of the
 * same file stores nothing new. Skipped, saying so, when the fixtures are absent.
 */
interface CorpusFile {
  label: string;
  bytes: Buffer;
  options: Record<string, string>;
  rows: number;
  sum: number;
  firstDate: string;
  lastDate: string;
  accountType?: string;
}

const corpus: CorpusFile[] = [
  ...bankCsvEntries().map((e) => ({
    label: `bank-csv/${e.file}`,
    bytes: readFileSync(path.join(BANK_CSV_DIR, e.file)),
    options: Object.fromEntries(Object.entries(manifestOptions(e)).map(([k, v]) => [k, String(v)])),
    rows: e.transaction_rows,
    sum: e.sum_amount_cents,
    firstDate: e.first.date,
    lastDate: e.last.date,
  })),
  ...bankLayoutEntries().map((e) => ({
    label: `bank-layouts/${e.file}`,
    bytes: readFileSync(path.join(BANK_LAYOUTS_DIR, e.file)),
    options: Object.fromEntries(Object.entries(manifestOptions(e)).map(([k, v]) => [k, String(v)])),
    rows: e.transaction_rows,
    sum: e.sum_amount_cents,
    firstDate: e.first.date,
    lastDate: e.last.date,
    accountType: e.account_type,
  })),
  ...statementEntries().map((e) => ({
    label: `bank-statements/${e.file}`,
    bytes: readFileSync(path.join(BANK_STATEMENTS_DIR, e.file)),
    options: statementOptions(e),
    rows: e.transaction_rows,
    sum: e.sum_amount_cents,
    firstDate: e.transactions[0].date,
    lastDate: e.transactions[e.transactions.length - 1].date,
  })),
];
if (corpus.length === 0)
  console.warn(`bank fixtures not found at ${path.dirname(BANK_CSV_DIR)}: corpus import tests skipped`);

let server: TestServer;
let user: ApiUser;
beforeAll(async () => {
  if (corpus.length === 0) return;
  server = await startServer({ UPLOAD_LIMIT_BYTES: String(16 * 1024 * 1024) });
  user = await signUp(server.url);
});
afterAll(async () => {
  await server?.close();
});

function upload(file: CorpusFile, account: string) {
  const body = new FormData();
  body.append('file', new Blob([new Uint8Array(file.bytes)]), path.basename(file.label));
  body.append('account', account);
  body.append('transactionType', 'auto');
  for (const [key, value] of Object.entries(file.options)) body.append(key, value);
  return rest(server.url, 'POST', '/api/upload', { token: user.token, body });
}

describe.skipIf(corpus.length === 0)('real bank files imported through the server', () => {
  it.each(corpus.map((file, i) => [file.label, file, i] as const))('%s', async (_label, file, i) => {
    const account = `Corpus ${i}`;
    ok(await user.post('/api/accounts', { name: account, type: file.accountType ?? 'checking' }));
    const first = await upload(file, account);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({ imported: file.rows, duplicates: 0 });

    const [stored] = await server.sql<{ n: number; total: number; first_date: string; last_date: string }>(
      `select count(*) as n, sum(amount) as total, min(post_date) as first_date, max(post_date) as last_date
         from "transaction" where user_id = ? and batch_id = ?`,
      [user.userId, first.body.batchId],
    );
    expect([Number(stored.n), Number(stored.total)]).toEqual([file.rows, file.sum]);
    const [from, to] = [file.firstDate, file.lastDate].sort();
    expect(stored.first_date <= from && stored.last_date >= to).toBe(true);

    const again = await upload(file, account);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toMatchObject({ imported: 0, duplicates: file.rows });
  });
});
