/**
 * SQLite and PostgreSQL side by side, on the same server code and the same data:
 *  - import of a 100,000-row CSV through POST /api/upload (rows/s; target on PostgreSQL >= 30,000),
 *  - one-month search GET /api/transactions (median of 20),
 *  - a one-year budget overview GET /api/budgets/:id/overview (median of 10).
 * PostgreSQL runs on a scratch database through PG_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres);
 * without one answering, its column says so.
 */
import { createScratchDatabase, DEFAULT_PG_ADMIN_URL, postgresAnswers, type ScratchDatabase } from '../src/server/db/pg-scratch';
import { registerUser, rest } from '../tests/helpers/http';
import { startServer } from '../tests/helpers/server';
import { median, ms } from './stats';

const ROWS = 100_000;
const CATEGORIES = ['Groceries', 'Dining', 'Rent', 'Utilities', 'Fuel', 'Salary', 'Fun', 'Health'];

function csv(): string {
  const lines = ['Date,Description,Amount,Category'];
  let state = 12345;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648);
  for (let i = 0; i < ROWS; i += 1) {
    const day = new Date(Date.UTC(2024, 0, 1) + Math.floor((i / ROWS) * 365) * 86400_000).toISOString().slice(0, 10);
    lines.push(`${day},Merchant ${next() % 500} purchase ${i},-${(next() % 200) + 1}.${String(next() % 100).padStart(2, '0')},${CATEGORIES[next() % CATEGORIES.length]}`);
  }
  return lines.join('\n');
}

interface Figures {
  importRowsPerSecond: number;
  monthSearchMs: number;
  overviewMs: number;
}

async function measure(env: Record<string, string>, file: string): Promise<Figures> {
  const server = await startServer({ LOG_LEVEL: 'silent', UPLOAD_LIMIT_BYTES: String(64 * 1024 * 1024), ...env });
  try {
    const user = await registerUser(server.url);
    const token = user.accessToken;
    await rest(server.url, 'POST', '/api/accounts', { token, body: { name: 'Checking', type: 'checking' } });
    const body = new FormData();
    body.append('file', new Blob([file]), 'big.csv');
    body.append('account', 'Checking');
    body.append('transactionType', 'auto');
    const started = performance.now();
    const imported = await rest(server.url, 'POST', '/api/upload', { token, body });
    const importMs = performance.now() - started;
    if (imported.status !== 201) throw new Error(`import failed: ${imported.status} ${JSON.stringify(imported.body).slice(0, 200)}`);
    const months = ['2024-02', '2024-05', '2024-08', '2024-11'];
    const searches: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const m = months[i % months.length];
      const t = performance.now();
      const res = await rest(server.url, 'GET', `/api/transactions?start_date=${m}-01&end_date=${m}-28`, { token });
      searches.push(performance.now() - t);
      if (res.status !== 200) throw new Error(`search failed: ${res.status}`);
    }
    const saved = await rest(server.url, 'POST', '/api/budgets/save', {
      token,
      body: { name: '2024', startDate: '2024-01-01', endDate: '2024-12-31', lineItems: CATEGORIES.map((c) => ({ name: c, amount: 100000, type: 'Variable', relatedCategories: [c] })) },
    });
    const overviews: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const t = performance.now();
      const res = await rest(server.url, 'GET', `/api/budgets/${saved.body.budget.id}/overview`, { token });
      overviews.push(performance.now() - t);
      if (res.status !== 200) throw new Error(`overview failed: ${res.status}`);
    }
    return { importRowsPerSecond: ROWS / (importMs / 1000), monthSearchMs: median(searches), overviewMs: median(overviews) };
  } finally {
    await server.close();
  }
}

export default async function run(): Promise<void> {
  const file = csv();
  const sqlite = await measure({}, file);
  const adminUrl = process.env.PG_ADMIN_URL ?? DEFAULT_PG_ADMIN_URL;
  let postgres: Figures | null = null;
  if (await postgresAnswers(adminUrl)) {
    const scratch: ScratchDatabase = await createScratchDatabase('bt_bench', adminUrl);
    try {
      postgres = await measure({ DATABASE_URL: scratch.url }, file);
    } finally {
      await scratch.drop();
    }
  }
  const column = (f: Figures | null, pick: (f: Figures) => string) => (f ? pick(f) : 'no PostgreSQL');
  console.log(`${''.padEnd(34)}${'SQLite'.padEnd(18)}PostgreSQL`);
  console.log(`${`import ${ROWS.toLocaleString('en-US')} rows (rows/s)`.padEnd(34)}${sqlite.importRowsPerSecond.toFixed(0).padEnd(18)}${column(postgres, (f) => f.importRowsPerSecond.toFixed(0))}`);
  console.log(`${'one-month search (median)'.padEnd(34)}${ms(sqlite.monthSearchMs).padEnd(18)}${column(postgres, (f) => ms(f.monthSearchMs))}`);
  console.log(`${'one-year budget overview (median)'.padEnd(34)}${ms(sqlite.overviewMs).padEnd(18)}${column(postgres, (f) => ms(f.overviewMs))}`);
}
