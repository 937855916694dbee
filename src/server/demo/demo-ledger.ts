import { addDays, daysInMonth, isoDateOf, parseIsoDate } from '../../shared/dates/calendar';
import { must } from '../../shared/must';

/**
 * A year (or any span) of realistic, deterministic personal finances: a salary,
 * rent and bills, groceries, dining, travel, refunds, card payments. Used by the
 * demo command and by benchmarks. Amounts are integer cents, money out negative.
 */

export interface DemoRow {
  postDate: string;
  description: string;
  amount: number;
  category: string | null;
}

export interface DemoAccount {
  name: string;
  type: 'checking' | 'savings' | 'credit' | 'investment' | 'cash';
  balance: number;
  rows: DemoRow[];
}

/** Small fast deterministic PRNG (mulberry32). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Habit {
  category: string;
  payees: string[];
  /** Expected occurrences per month. */
  perMonth: number;
  /** Range of the amount in cents (magnitude). */
  min: number;
  max: number;
  account: 'checking' | 'credit';
}

const HABITS: Habit[] = [
  {
    category: 'Groceries',
    payees: ['WHOLE FOODS MARKET', 'TRADER JOES #552', 'SAFEWAY 1234', 'ALDI STORE 88', 'Local Farmers Market'],
    perMonth: 9,
    min: 1800,
    max: 14500,
    account: 'credit',
  },
  {
    category: 'Dining Out',
    payees: ['CHIPOTLE 2291', "Luigi's Trattoria", 'SUSHI ZEN', 'THE BURGER JOINT', 'Pho Saigon'],
    perMonth: 6,
    min: 1200,
    max: 8900,
    account: 'credit',
  },
  {
    category: 'Coffee',
    payees: ['STARBUCKS #1123', 'Blue Bottle Coffee', 'Corner Café'],
    perMonth: 10,
    min: 325,
    max: 790,
    account: 'credit',
  },
  {
    category: 'Transport',
    payees: ['METRO TRANSIT', 'UBER *TRIP', 'LYFT *RIDE'],
    perMonth: 5,
    min: 250,
    max: 3200,
    account: 'credit',
  },
  {
    category: 'Fuel',
    payees: ['SHELL OIL 5742', 'CHEVRON 0091', 'BP#8812'],
    perMonth: 2,
    min: 3500,
    max: 7200,
    account: 'credit',
  },
  {
    category: 'Household',
    payees: ['TARGET 00012', 'IKEA', 'HOME DEPOT #4410', 'AMAZON MKTPL'],
    perMonth: 3,
    min: 900,
    max: 16000,
    account: 'credit',
  },
  {
    category: 'Clothing',
    payees: ['UNIQLO', 'H&M 552', 'REI #77'],
    perMonth: 1,
    min: 2500,
    max: 18000,
    account: 'credit',
  },
  {
    category: 'Entertainment',
    payees: ['AMC THEATRES', 'STEAM PURCHASE', 'Ticketmaster'],
    perMonth: 1.5,
    min: 1200,
    max: 9500,
    account: 'credit',
  },
  { category: 'Books', payees: ["Powell's Books", 'KINDLE SVCS'], perMonth: 1, min: 499, max: 3200, account: 'credit' },
  {
    category: 'Pharmacy',
    payees: ['CVS/PHARMACY #0912', 'WALGREENS #3321'],
    perMonth: 1.2,
    min: 600,
    max: 4800,
    account: 'credit',
  },
  {
    category: 'Gifts',
    payees: ['ETSY.COM', 'Flower Shop Rosa', 'AMAZON MKTPL'],
    perMonth: 0.8,
    min: 1500,
    max: 12000,
    account: 'credit',
  },
  { category: 'Pets', payees: ['PETCO 1180', 'Happy Paws Vet'], perMonth: 1, min: 1800, max: 15000, account: 'credit' },
];

interface Bill {
  category: string;
  payee: string;
  day: number;
  amount: number;
  /** Random variation in cents either way. */
  jitter: number;
  account: 'checking' | 'credit';
}

const BILLS: Bill[] = [
  { category: 'Rent', payee: 'OAKWOOD APARTMENTS RENT', day: 1, amount: 185000, jitter: 0, account: 'checking' },
  { category: 'Electricity', payee: 'CITY POWER & LIGHT', day: 12, amount: 7400, jitter: 3500, account: 'checking' },
  { category: 'Internet', payee: 'COMCAST XFINITY', day: 15, amount: 6999, jitter: 0, account: 'checking' },
  { category: 'Phone', payee: 'T-MOBILE AUTOPAY', day: 18, amount: 6500, jitter: 0, account: 'checking' },
  { category: 'Car Insurance', payee: 'GEICO AUTO', day: 20, amount: 11250, jitter: 0, account: 'checking' },
  { category: 'Health Insurance', payee: 'BLUE SHIELD PREMIUM', day: 3, amount: 32000, jitter: 0, account: 'checking' },
  { category: 'Gym', payee: 'PLANET FITNESS CLUB', day: 7, amount: 2499, jitter: 0, account: 'credit' },
  { category: 'Streaming', payee: 'NETFLIX.COM', day: 9, amount: 1549, jitter: 0, account: 'credit' },
  { category: 'Streaming', payee: 'SPOTIFY USA', day: 21, amount: 1199, jitter: 0, account: 'credit' },
  { category: 'Charity', payee: 'RED CROSS DONATION', day: 25, amount: 2500, jitter: 0, account: 'checking' },
];

export const DEMO_CATEGORIES = [
  ...new Set([
    'Salary',
    'Interest',
    'Refunds',
    'Savings Transfer',
    'Credit Card Payment',
    'Travel',
    ...HABITS.map((h) => h.category),
    ...BILLS.map((b) => b.category),
  ]),
].sort();

function monthStarts(start: string, months: number): Array<{ year: number; month: number }> {
  const first = parseIsoDate(start);
  if (!first) throw new RangeError(`Not a calendar date: ${start}`);
  const out = [];
  for (let i = 0; i < months; i++) {
    const index = first.month - 1 + i;
    out.push({ year: first.year + Math.floor(index / 12), month: (index % 12) + 1 });
  }
  return out;
}

/** One of `list` (not empty), chosen by `random`. */
function pick<T>(random: () => number, list: readonly T[]): T {
  return must(list[Math.floor(random() * list.length)], 'random() is below 1 and the list is not empty');
}

function between(random: () => number, min: number, max: number): number {
  return Math.round(min + random() * (max - min));
}

/** Poisson-ish count with the given mean. */
function occurrences(random: () => number, mean: number): number {
  let count = 0;
  let remaining = mean;
  while (remaining > 0) {
    if (random() < Math.min(1, remaining)) count++;
    remaining -= 1;
  }
  return count + (random() < 0.15 ? 1 : 0);
}

export interface DemoLedgerOptions {
  /** First day of the first month, `YYYY-MM-01`. */
  start: string;
  months: number;
  seed?: number;
  /** Scales the number of everyday purchases (1 = a typical person). */
  intensity?: number;
  /**
   * 2 adds a second monthly salary into checking (a household whose everyday spending is scaled
   * up with `intensity` still earns more than it spends). Default 1: the rows are exactly those
   * of earlier versions for the same seed.
   */
  earners?: 1 | 2;
}

/** The rows of the three accounts being generated. */
interface Ledger {
  checking: DemoRow[];
  credit: DemoRow[];
  savings: DemoRow[];
}

/** One month of the span: its last day, and the date of a day in it (clamped to the month). */
interface DemoMonth {
  month: number;
  last: number;
  date: (day: number) => string;
}

function accountRows(ledger: Ledger, account: 'checking' | 'credit'): DemoRow[] {
  return account === 'checking' ? ledger.checking : ledger.credit;
}

function addIncome(ledger: Ledger, { date }: DemoMonth, random: () => number, earners: 1 | 2): void {
  for (const payday of [1, 15]) {
    ledger.checking.push({
      postDate: date(payday),
      description: 'ACME CORP PAYROLL DIRECT DEP',
      amount: between(random, 310000, 312000),
      category: 'Salary',
    });
  }
  if (earners === 2) {
    ledger.checking.push({
      postDate: date(28),
      description: 'NORTHWIND HEALTH PAYROLL',
      amount: between(random, 518000, 524000),
      category: 'Salary',
    });
  }
}

function addSpending(ledger: Ledger, { date, last }: DemoMonth, random: () => number, intensity: number): void {
  for (const bill of BILLS) {
    const amount = bill.amount + (bill.jitter ? between(random, -bill.jitter, bill.jitter) : 0);
    accountRows(ledger, bill.account).push({
      postDate: date(bill.day),
      description: bill.payee,
      amount: -amount,
      category: bill.category,
    });
  }
  for (const habit of HABITS) {
    const count = occurrences(random, habit.perMonth * intensity);
    for (let i = 0; i < count; i++) {
      const payee = pick(random, habit.payees);
      accountRows(ledger, habit.account).push({
        postDate: date(1 + Math.floor(random() * last)),
        description: payee,
        amount: -between(random, habit.min, habit.max),
        category: habit.category,
      });
    }
  }
}

/** A refund now and then; trips in July, December and now and then. */
function addRefundsAndTravel(ledger: Ledger, { month, date }: DemoMonth, random: () => number): void {
  if (random() < 0.25) {
    ledger.credit.push({
      postDate: date(between(random, 2, 27)),
      description: 'AMAZON MKTPL REFUND',
      amount: between(random, 1500, 6000),
      category: 'Refunds',
    });
  }
  if (month === 7 || month === 12 || random() < 0.08) {
    ledger.credit.push({
      postDate: date(between(random, 3, 20)),
      description: 'DELTA AIR LINES',
      amount: -between(random, 28000, 72000),
      category: 'Travel',
    });
    ledger.credit.push({
      postDate: date(between(random, 21, 27)),
      description: 'MARRIOTT HOTELS',
      amount: -between(random, 35000, 90000),
      category: 'Travel',
    });
  }
}

function addSavings(ledger: Ledger, { date, last }: DemoMonth, random: () => number): void {
  const transfer = 50000;
  ledger.checking.push({
    postDate: date(16),
    description: 'TRANSFER TO SAVINGS',
    amount: -transfer,
    category: 'Savings Transfer',
  });
  ledger.savings.push({
    postDate: date(16),
    description: 'TRANSFER FROM CHECKING',
    amount: transfer,
    category: 'Savings Transfer',
  });
  ledger.savings.push({
    postDate: date(last),
    description: 'INTEREST PAYMENT',
    amount: between(random, 800, 1600),
    category: 'Interest',
  });
}

/** The card is paid in full from checking each month for the previous month's spending. */
function addCardPayments(ledger: Ledger): void {
  const byMonth = new Map<string, number>();
  for (const row of ledger.credit)
    byMonth.set(row.postDate.slice(0, 7), (byMonth.get(row.postDate.slice(0, 7)) ?? 0) + row.amount);
  for (const [month, total] of byMonth) {
    if (total >= 0) continue;
    const paymentDate = addDays(
      `${month}-${String(daysInMonth(Number(month.slice(0, 4)), Number(month.slice(5, 7)))).padStart(2, '0')}`,
      5,
    );
    ledger.credit.push({
      postDate: paymentDate,
      description: 'PAYMENT THANK YOU',
      amount: -total,
      category: 'Credit Card Payment',
    });
    ledger.checking.push({
      postDate: paymentDate,
      description: 'CARD SERVICES PAYMENT',
      amount: total,
      category: 'Credit Card Payment',
    });
  }
}

/** Three accounts (checking, credit card, savings) with every transaction of the span. */
export function generateDemoLedger({
  start,
  months,
  seed = 42,
  intensity = 1,
  earners = 1,
}: DemoLedgerOptions): DemoAccount[] {
  const random = seededRandom(seed);
  const ledger: Ledger = { checking: [], credit: [], savings: [] };
  // Each month draws from `random` in this order, so a seed gives the same rows as before.
  for (const { year, month } of monthStarts(start, months)) {
    const last = daysInMonth(year, month);
    const demoMonth: DemoMonth = {
      month,
      last,
      date: (day) => isoDateOf(year, month, Math.min(Math.max(1, day), last)),
    };
    addIncome(ledger, demoMonth, random, earners);
    addSpending(ledger, demoMonth, random, intensity);
    addRefundsAndTravel(ledger, demoMonth, random);
    addSavings(ledger, demoMonth, random);
  }
  addCardPayments(ledger);
  const byDate = (a: DemoRow, b: DemoRow) => a.postDate.localeCompare(b.postDate);
  return [
    { name: 'Everyday Checking', type: 'checking', balance: 523417, rows: ledger.checking.sort(byDate) },
    { name: 'Rewards Card', type: 'credit', balance: -84233, rows: ledger.credit.sort(byDate) },
    { name: 'Rainy Day Savings', type: 'savings', balance: 1250000, rows: ledger.savings.sort(byDate) },
  ];
}

function csvCell(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A bank-style CSV export: `Date,Description,Amount,Category` with MM/DD/YYYY dates and signed amounts. */
export function toBankCsv(rows: DemoRow[]): string {
  const lines = ['Date,Description,Amount,Category'];
  for (const row of rows) {
    const [year, month, day] = row.postDate.split('-');
    const sign = row.amount < 0 ? '-' : '';
    const abs = Math.abs(row.amount);
    const amount = `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
    lines.push([`${month}/${day}/${year}`, csvCell(row.description), amount, csvCell(row.category ?? '')].join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
