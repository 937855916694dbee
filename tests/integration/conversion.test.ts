import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

/**
 * Figures that combine accounts in EUR, GBP and JPY, converted at each transaction's own date's ECB
 * rate and compared with a conversion written here independently (rates as exact fractions, half to
 * even per transaction, then summed); a transaction with no rate within 7 days is counted, not converted.
 */
let server: TestServer;
let user: ApiUser;

// ECB reference rates (one EUR in each currency).
const ECB: Record<string, Record<string, string>> = {
  '2024-03-01': { GBP: '0.85525', JPY: '162.24', USD: '1.0826' },
  '2024-03-04': { GBP: '0.8555', JPY: '162.50', USD: '1.0844' },
  '2024-03-05': { GBP: '0.85500', JPY: '162.16', USD: '1.0854' },
  '2024-04-02': { GBP: '0.8556', JPY: '163.48', USD: '1.0746' },
};
const ecbCsv = [
  'Date,USD,JPY,GBP,',
  ...Object.entries(ECB)
    .reverse()
    .map(([date, r]) => `${date},${r.USD},${r.JPY},${r.GBP},`),
].join('\n');

const DIGITS: Record<string, number> = { EUR: 2, GBP: 2, JPY: 0 };

/** 1 unit of `from` in `to` on `date` as an exact fraction [num, den], from EUR-based rates. */
function rate(from: string, to: string, date: string): [bigint, bigint] {
  const leg = (code: string): [bigint, bigint] => {
    if (code === 'EUR') return [1n, 1n];
    const text = ECB[date]?.[code];
    if (!text) throw new Error(`no ${code} on ${date}`);
    const [whole = '', frac = ''] = text.split('.');
    return [BigInt(whole + frac), 10n ** BigInt(frac.length)];
  };
  const [fn, fd] = leg(from);
  const [tn, td] = leg(to);
  return [tn * fd, td * fn];
}

function halfEven(n: bigint, d: bigint): bigint {
  const neg = n < 0n;
  const a = neg ? -n : n;
  let q = a / d;
  const r2 = (a % d) * 2n;
  if (r2 > d || (r2 === d && q % 2n === 1n)) q += 1n;
  return neg ? -q : q;
}

function convert(amount: number, from: string, to: string, rateDate: string): number {
  if (from === to) return amount;
  const [n, d] = rate(from, to, rateDate);
  return Number(halfEven(BigInt(amount) * n * 10n ** BigInt(DIGITS[to] ?? 2), d * 10n ** BigInt(DIGITS[from] ?? 2)));
}

interface Row {
  account: string;
  currency: string;
  date: string;
  /** The date of the rate that applies (latest ECB date on or before, within 7 days), or null. */
  rateDate: string | null;
  amount: number;
  category: string;
}

const ROWS: Row[] = [
  { account: 'Euro', currency: 'EUR', date: '2024-03-01', rateDate: '2024-03-01', amount: -12345, category: 'Food' },
  // 400 pence at 1/0.85525 EUR: not a tie; 171 pence at 1/0.855 = 200 cents exactly
  { account: 'Pounds', currency: 'GBP', date: '2024-03-01', rateDate: '2024-03-01', amount: -400, category: 'Food' },
  { account: 'Pounds', currency: 'GBP', date: '2024-03-05', rateDate: '2024-03-05', amount: -171, category: 'Food' },
  // 300 cents x 0.855 = 256.5 pence: a tie, which goes to the even 256 when GBP is the home currency
  { account: 'Euro', currency: 'EUR', date: '2024-03-05', rateDate: '2024-03-05', amount: -300, category: 'Food' },
  // Saturday: Friday's rate
  { account: 'Pounds', currency: 'GBP', date: '2024-03-02', rateDate: '2024-03-01', amount: 250000, category: 'Pay' },
  { account: 'Yen', currency: 'JPY', date: '2024-03-04', rateDate: '2024-03-04', amount: -1625, category: 'Food' },
  { account: 'Yen', currency: 'JPY', date: '2024-03-05', rateDate: '2024-03-05', amount: -81080, category: 'Rent' },
  { account: 'Yen', currency: 'JPY', date: '2024-03-11', rateDate: '2024-03-05', amount: -3333, category: 'Food' },
  // More than 7 days after the last rate: no rate
  { account: 'Yen', currency: 'JPY', date: '2024-03-20', rateDate: null, amount: -5000, category: 'Food' },
  { account: 'Pounds', currency: 'GBP', date: '2024-03-25', rateDate: null, amount: -999, category: 'Food' },
  { account: 'Euro', currency: 'EUR', date: '2024-04-02', rateDate: '2024-04-02', amount: 500000, category: 'Pay' },
  { account: 'Yen', currency: 'JPY', date: '2024-04-03', rateDate: '2024-04-02', amount: -16348, category: 'Food' },
];

function expectedMonthly(home: string) {
  const months = new Map<
    string,
    { income: number; expenses: number; noRate: number; byCategory: Record<string, number> }
  >();
  for (const month of ['2024-03', '2024-04']) months.set(month, { income: 0, expenses: 0, noRate: 0, byCategory: {} });
  for (const row of ROWS) {
    const m = months.get(row.date.slice(0, 7))!;
    if (row.currency !== home && row.rateDate === null) {
      m.noRate += 1;
      continue;
    }
    const value = convert(row.amount, row.currency, home, row.rateDate ?? row.date);
    if (value > 0) m.income += value;
    else m.expenses -= value;
    m.byCategory[row.category] = (m.byCategory[row.category] ?? 0) + value;
  }
  return [...months].map(([month, m]) => ({ month, ...m, net: m.income - m.expenses, currency: home }));
}

beforeAll(async () => {
  server = await startServer();
  user = await signUp(server.url);
  ok(await user.put('/api/auth/home-currency', { homeCurrency: 'EUR' }));
  for (const [name, currency] of [
    ['Euro', 'EUR'],
    ['Pounds', 'GBP'],
    ['Yen', 'JPY'],
  ])
    ok(await user.post('/api/accounts', { name, type: 'checking', currency }));
  const body = new FormData();
  body.append('file', new Blob([ecbCsv]), 'eurofxref-hist.csv');
  ok(await rest(server.url, 'POST', '/api/rates', { token: user.token, body }));
  for (const row of ROWS)
    ok(
      await user.post('/api/transactions', {
        postDate: row.date,
        description: `${row.category} ${row.amount}`,
        amount: row.amount,
        account: row.account,
        category: row.category,
      }),
    );
});
afterAll(async () => {
  await server.close();
});

async function monthly() {
  return ok<
    {
      month: string;
      income: number;
      expenses: number;
      net: number;
      currency: string;
      noRate: number;
      byCategory: Record<string, number>;
    }[]
  >(await user.get('/api/reports/monthly?start_date=2024-03-01&end_date=2024-04-30'));
}

describe('the monthly report across currencies', () => {
  it('converts each transaction at its own date, to the cent, and counts those with no rate', async () => {
    expect(await monthly()).toEqual(expectedMonthly('EUR'));
  });

  it('changing the home currency converts again and changes nothing stored', async () => {
    const stored = () =>
      server.sql('select id, amount, account_id, post_date from "transaction" where user_id = ? order by id', [
        user.userId,
      ]);
    const before = await stored();
    ok(await user.put('/api/auth/home-currency', { homeCurrency: 'GBP' }));
    expect(await monthly()).toEqual(expectedMonthly('GBP'));
    ok(await user.put('/api/auth/home-currency', { homeCurrency: 'JPY' }));
    const yen = await monthly();
    expect(yen).toEqual(expectedMonthly('JPY'));
    // Yen have no decimals: every figure is whole yen.
    expect(yen.every((m) => Number.isInteger(m.income) && Number.isInteger(m.expenses))).toBe(true);
    expect(await stored()).toEqual(before);
    ok(await user.put('/api/auth/home-currency', { homeCurrency: 'EUR' }));
    expect(await monthly()).toEqual(expectedMonthly('EUR'));
  });
});
