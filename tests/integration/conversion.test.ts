import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data, ok, signUp, type ApiUser } from '../helpers/api';
import { payeeKey, payeeName } from '../../src/shared/reports';
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

/** Each row's value in `home` at its rate, or null when it has no rate (left out, counted). */
function valued(home: string, rows: readonly Row[] = ROWS): { row: Row; value: number | null }[] {
  return rows.map((row) => ({
    row,
    value:
      row.currency === home
        ? row.amount
        : row.rateDate === null
          ? null
          : convert(row.amount, row.currency, home, row.rateDate),
  }));
}

function expectedSum(home: string, keep: (row: Row) => boolean = () => true) {
  const picked = valued(home).filter(({ row }) => keep(row));
  return {
    total: picked.reduce((sum, { value }) => sum + (value ?? 0), 0),
    noRate: picked.filter(({ value }) => value === null).length,
  };
}

function expectedSumAs(home: string) {
  const { total, noRate } = expectedSum(home);
  return { net: total, noRate };
}

describe('every other figure that combines accounts', () => {
  const RANGE = 'start_date=2024-03-01&end_date=2024-04-30';

  it('the search total converts each row at its date and counts those with no rate', async () => {
    const total = ok<{ net: number; currency: string; converted: boolean; noRate: number; count: number }>(
      await user.get(`/api/transactions/total?${RANGE}`),
    );
    const expected = expectedSum('EUR');
    expect(total).toEqual({
      net: expected.total,
      currency: 'EUR',
      converted: true,
      count: ROWS.length,
      noRate: expected.noRate,
      transfersLeftOut: 0,
    });
    // The same through tRPC, narrowed to one account: yen only, converted.
    const yen = data(
      await user.trpc.transactions.total.query({ startDate: '2024-03-01', endDate: '2024-04-30', account: 'Yen' }),
    );
    expect(yen.net).toBe(expectedSum('EUR', (row) => row.account === 'Yen').total);
    expect(yen.noRate).toBe(1);
    // In pounds, 300 euro cents at 0.855 is 256.5 pence: a tie the database cannot round, which goes to 256.
    ok(await user.put('/api/auth/home-currency', { homeCurrency: 'GBP' }));
    try {
      const pounds = ok<{ net: number; noRate: number }>(await user.get(`/api/transactions/total?${RANGE}`));
      expect(pounds).toMatchObject(expectedSumAs('GBP'));
    } finally {
      ok(await user.put('/api/auth/home-currency', { homeCurrency: 'EUR' }));
    }
  });

  it('payees convert their rows and count those with no rate', async () => {
    const payees = ok<{ payee: string; total: number; currency: string; noRate: number }[]>(
      await user.get(`/api/reports/payees?${RANGE}&limit=50`),
    );
    const keyOf = (row: Row) => payeeKey(payeeName(`${row.category} ${row.amount}`));
    const keys = [...new Set(ROWS.map(keyOf))];
    expect(payees).toHaveLength(keys.length);
    for (const key of keys) {
      const expected = expectedSum('EUR', (row) => keyOf(row) === key);
      const payee = payees.find((p) => payeeKey(p.payee) === key);
      expect(payee, key).toMatchObject({ total: expected.total, currency: 'EUR', noRate: expected.noRate });
    }
  });

  it('the budget overview and envelopes convert, say their currency and count the rows with no rate', async () => {
    const budget = ok<{ budget: { id: number } }>(
      await user.post('/api/budgets/save', {
        name: 'Spring',
        startDate: '2024-03-01',
        endDate: '2024-04-30',
        lineItems: [
          { name: 'Food', amount: 50000, type: 'Variable', relatedCategories: ['Food'] },
          { name: 'Pay', amount: 500000, type: 'Income', relatedCategories: ['Pay'] },
        ],
      }),
    ).budget;
    const { overview } = ok<{
      overview: { total: number; currency: string; noRate: number; lineItems: { name: string; actual: number }[] };
    }>(await user.get(`/api/budgets/${budget.id}/overview`));
    const all = expectedSum('EUR');
    expect(overview).toMatchObject({ total: all.total, currency: 'EUR', noRate: all.noRate });
    const food = expectedSum('EUR', (row) => row.category === 'Food');
    expect(Math.abs(overview.lineItems.find((item) => item.name === 'Food')!.actual)).toBe(Math.abs(food.total));

    ok(await user.post('/api/envelopes', { name: 'Eating', categories: ['Food'] }));
    const envelopes = ok<{ name: string; total: number; currency: string; noRate: number }[]>(
      await user.get(`/api/envelopes?${RANGE}`),
    );
    expect(envelopes.find((e) => e.name === 'Eating')).toMatchObject({
      total: food.total,
      currency: 'EUR',
      noRate: food.noRate,
    });
  });

  it('the monthly plan counts each row converted, says its currency and counts the rows with no rate', async () => {
    const plan = ok<{ currency: string; noRate: number; categories: { name: string; activity: number }[] }>(
      await user.get('/api/plan/2024-03'),
    );
    const food = expectedSum('EUR', (row) => row.category === 'Food' && row.date.startsWith('2024-03'));
    expect(plan.categories.find((c) => c.name === 'Food')?.activity).toBe(food.total);
    const upToMonthEnd = expectedSum('EUR', (row) => row.date <= '2024-03-31');
    expect(upToMonthEnd.noRate).toBeGreaterThan(0);
    expect(plan).toMatchObject({ currency: 'EUR', noRate: upToMonthEnd.noRate });
  });

  it('net worth values each balance at the rate of the month’s end, and leaves out a balance with no rate', async () => {
    const answer = ok<{ currency: string; points: { month: string; netWorth: number; noRate: number }[] }>(
      await user.get('/api/accounts/net-worth?months=2&end_date=2024-04-05'),
    );
    const balance = (account: string, until: string) =>
      ROWS.filter((row) => row.account === account && row.date <= until).reduce((sum, row) => sum + row.amount, 0);
    // 31 March: the last rates (5 March) are too old for pounds and yen.
    const march = balance('Euro', '2024-03-31');
    // 5 April (the end asked for): the rates of 2 April.
    const april =
      balance('Euro', '2024-04-05') +
      convert(balance('Pounds', '2024-04-05'), 'GBP', 'EUR', '2024-04-02') +
      convert(balance('Yen', '2024-04-05'), 'JPY', 'EUR', '2024-04-02');
    expect(answer.currency).toBe('EUR');
    expect(answer.points.map((p) => [p.month, p.netWorth, p.noRate])).toEqual([
      ['2024-03', march, 2],
      ['2024-04', april, 0],
    ]);
  });
});
