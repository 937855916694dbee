import { daysInMonth, isoDateOf, parseIsoDate } from '../../shared/dates/calendar';
import { must } from '../../shared/must';
import type { LineItemType } from '../../shared/schemas/budgets';
import { ENVELOPE_COLORS } from '../../shared/schemas/envelopes';
import type { TransactionDto, TransactionType } from '../../shared/schemas/transactions';
import { generateDemoLedger, type DemoAccount, type DemoRow } from './demo-ledger';
import { nameKey } from '../../shared/names';

/**
 * The pure half of `npm run demo`: which dates, which CSV batches, which splits, budgets and
 * envelopes. Everything here is a function of (today, seed, intensity), so the demo is
 * deterministic given the date. run-demo.ts sends it all through the real API.
 */

export const DEMO_MONTHS = 12;
/**
 * Everyday purchases of a household rather than one person (a few thousand rows a year); the
 * ledger then has two earners so the year still ends in the black.
 */
export const DEFAULT_DEMO_INTENSITY = 4;
export const DEFAULT_DEMO_SEED = 42;

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

export interface DemoWindow {
  /** First day of the first month (11 months before the current one). */
  start: string;
  /** Today: nothing is dated after it. */
  today: string;
  /** First and last day of the current month (the monthly budget). */
  monthStart: string;
  monthEnd: string;
  /** `YYYY-MM` of each of the 12 months, oldest first. */
  months: string[];
}

export function demoWindow(today: string): DemoWindow {
  const date = parseIsoDate(today);
  if (!date) throw new RangeError(`Not a calendar date: ${today}`);
  /** `YYYY-MM` of the month `back` months before today's. */
  const monthBefore = (back: number) => {
    const index = date.year * 12 + (date.month - 1) - back;
    return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
  };
  const months: string[] = [];
  for (let back = DEMO_MONTHS - 1; back >= 0; back--) months.push(monthBefore(back));
  return {
    start: `${monthBefore(DEMO_MONTHS - 1)}-01`,
    today,
    monthStart: isoDateOf(date.year, date.month, 1),
    monthEnd: isoDateOf(date.year, date.month, daysInMonth(date.year, date.month)),
    months,
  };
}

export function monthLabel(yearMonth: string, short = false): string {
  const name = must(MONTH_NAMES[Number(yearMonth.slice(5, 7)) - 1], `a YYYY-MM month (not '${yearMonth}')`);
  return `${short ? name.slice(0, 3) : name} ${yearMonth.slice(0, 4)}`;
}

export interface DemoLedger {
  window: DemoWindow;
  /** The whole 12 months as generated (the current month complete): the basis of the budgets. */
  accounts: DemoAccount[];
}

export function demoLedger(today: string, seed = DEFAULT_DEMO_SEED, intensity = DEFAULT_DEMO_INTENSITY): DemoLedger {
  const window = demoWindow(today);
  return {
    window,
    accounts: generateDemoLedger({ start: window.start, months: DEMO_MONTHS, seed, intensity, earners: 2 }),
  };
}

/** What an import of each account's CSV is typed as (the upload form's transaction type). */
export const ACCOUNT_TRANSACTION_TYPE: Record<DemoAccount['type'], TransactionType> = {
  checking: 'debit',
  credit: 'charge',
  savings: 'credit',
  investment: 'transfer',
  cash: 'debit',
};

export interface DemoBatch {
  account: DemoAccount;
  transactionType: TransactionType;
  fileName: string;
  /** The months the file covers (`YYYY-MM`). */
  firstMonth: string;
  lastMonth: string;
  rows: DemoRow[];
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * One CSV per account per quarter of the window (months 1-3, 4-6, 7-9, 10-12), as someone
 * downloading statements every three months would. Rows dated after today are left out (the
 * current month is in progress, and a card payment for it would fall next month).
 */
export function demoBatches({ window, accounts }: DemoLedger): DemoBatch[] {
  const batches: DemoBatch[] = [];
  const windowMonth = (index: number) =>
    must(window.months[index], 'the demo window has DEMO_MONTHS (a multiple of 3) months');
  for (const account of accounts) {
    for (let q = 0; q < DEMO_MONTHS / 3; q++) {
      const firstMonth = windowMonth(q * 3);
      const lastMonth = windowMonth(q * 3 + 2);
      const from = `${firstMonth}-01`;
      const until = q === DEMO_MONTHS / 3 - 1 ? window.today : `${windowMonth(q * 3 + 3)}-01`;
      const rows = account.rows.filter(
        (row) => row.postDate >= from && (q === DEMO_MONTHS / 3 - 1 ? row.postDate <= until : row.postDate < until),
      );
      if (rows.length === 0) continue;
      batches.push({
        account,
        transactionType: ACCOUNT_TRANSACTION_TYPE[account.type],
        fileName: `${slug(account.name)}-${firstMonth}-to-${lastMonth}.csv`,
        firstMonth,
        lastMonth,
        rows,
      });
    }
  }
  return batches;
}

export interface DemoLineItem {
  name: string;
  type: LineItemType;
  relatedCategories: string[];
  /** Budgeted share of the typical month's actual (below 1 leaves the item a little overspent). */
  factor: number;
}

/**
 * The line items of both budgets, every type represented. 'Pets' and 'Refunds' are left out on
 * purpose so the overview's Untracked group has something in it.
 */
export const DEMO_LINE_ITEMS: DemoLineItem[] = [
  { name: 'Salary', type: 'Income', relatedCategories: ['Salary'], factor: 0.98 },
  { name: 'Interest', type: 'Income', relatedCategories: ['Interest'], factor: 1 },
  { name: 'Rent', type: 'Fixed', relatedCategories: ['Rent'], factor: 1 },
  { name: 'Utilities', type: 'Fixed', relatedCategories: ['Electricity', 'Internet', 'Phone'], factor: 1.05 },
  { name: 'Insurance', type: 'Fixed', relatedCategories: ['Car Insurance', 'Health Insurance'], factor: 1 },
  { name: 'Subscriptions', type: 'Fixed', relatedCategories: ['Streaming', 'Gym'], factor: 1 },
  { name: 'Groceries', type: 'Variable', relatedCategories: ['Groceries'], factor: 1.05 },
  { name: 'Eating out', type: 'Variable', relatedCategories: ['Dining Out', 'Coffee'], factor: 0.85 },
  { name: 'Getting around', type: 'Variable', relatedCategories: ['Transport', 'Fuel'], factor: 1.1 },
  { name: 'Home & clothes', type: 'Variable', relatedCategories: ['Household', 'Clothing'], factor: 0.9 },
  { name: 'Fun', type: 'Variable', relatedCategories: ['Entertainment', 'Books'], factor: 1 },
  { name: 'Health', type: 'Variable', relatedCategories: ['Pharmacy'], factor: 1.2 },
  { name: 'Gifts & giving', type: 'Variable', relatedCategories: ['Gifts', 'Charity'], factor: 1 },
  { name: 'Travel', type: 'Variable', relatedCategories: ['Travel'], factor: 1 },
  // Both legs of a transfer are in the data, so these net to about zero: budget nothing.
  {
    name: 'Transfers & card payments',
    type: 'NotCounted',
    relatedCategories: ['Savings Transfer', 'Credit Card Payment'],
    factor: 0,
  },
];

/** Categories deliberately related to no line item (the overview shows them under Untracked). */
export const DEMO_UNTRACKED_CATEGORIES = ['Pets', 'Refunds'];

export interface PlannedLineItem {
  name: string;
  amount: number;
  type: LineItemType;
  relatedCategories: string[];
}

export interface PlannedBudget {
  name: string;
  startDate: string;
  endDate: string;
  lineItems: PlannedLineItem[];
}

/** Rounds cents to a planner's figure: whole $25 for larger sums, whole dollars for small ones. */
function plannerRound(cents: number): number {
  if (cents <= 0) return 0;
  const step = cents >= 20000 ? 2500 : 100;
  return Math.max(step, Math.round(cents / step) * step);
}

/** The typical month of each line item (the ledger's 12-month total / 12), oriented like the overview. */
function typicalMonth(accounts: DemoAccount[]): Map<string, number> {
  const byCategory = new Map<string, number>();
  for (const account of accounts) {
    for (const row of account.rows) {
      if (!row.category) continue;
      const key = nameKey(row.category);
      byCategory.set(key, (byCategory.get(key) ?? 0) + row.amount);
    }
  }
  const out = new Map<string, number>();
  for (const item of DEMO_LINE_ITEMS) {
    const signed = item.relatedCategories.reduce((sum, name) => sum + (byCategory.get(nameKey(name)) ?? 0), 0);
    out.set(item.name, (item.type === 'Income' ? signed : -signed) / DEMO_MONTHS);
  }
  return out;
}

/** A budget for the current month and one for the 12 months, amounts from the ledger's typical month. */
export function demoBudgets({ window, accounts }: DemoLedger): PlannedBudget[] {
  const typical = typicalMonth(accounts);
  const items = (months: number): PlannedLineItem[] =>
    DEMO_LINE_ITEMS.map((item) => ({
      name: item.name,
      type: item.type,
      relatedCategories: item.relatedCategories,
      amount: plannerRound((typical.get(item.name) ?? 0) * item.factor) * months,
    }));
  const current = must(window.months.at(-1), 'the demo window has DEMO_MONTHS months');
  return [
    {
      name: `${monthLabel(current)} budget`,
      startDate: window.monthStart,
      endDate: window.monthEnd,
      lineItems: items(1),
    },
    {
      name: `Year budget ${monthLabel(window.start.slice(0, 7), true)} - ${monthLabel(current, true)}`,
      startDate: window.start,
      endDate: window.monthEnd,
      lineItems: items(DEMO_MONTHS),
    },
  ];
}

export interface PlannedEnvelope {
  name: string;
  description: string | null;
  categories: string[];
  color: string;
  isActive: boolean;
}

const color = (name: (typeof ENVELOPE_COLORS)[number]['name']) =>
  must(
    ENVELOPE_COLORS.find((c) => c.name === name),
    `an envelope colour named ${name}`,
  ).value;

export const DEMO_ENVELOPES: PlannedEnvelope[] = [
  {
    name: 'Food',
    description: 'Everything we eat and drink, at home or out',
    categories: ['Groceries', 'Dining Out', 'Coffee'],
    color: color('Green'),
    isActive: true,
  },
  {
    name: 'Getting around',
    description: 'Fares, rides, fuel and the car',
    categories: ['Transport', 'Fuel', 'Car Insurance'],
    color: color('Blue'),
    isActive: true,
  },
  {
    name: 'Home',
    description: 'Rent, power, internet and things for the flat',
    categories: ['Rent', 'Electricity', 'Internet', 'Household'],
    color: color('Orange'),
    isActive: true,
  },
  {
    name: 'Fun money',
    description: 'Films, games, books and streaming',
    categories: ['Entertainment', 'Books', 'Streaming'],
    color: color('Purple'),
    isActive: true,
  },
  {
    name: 'Health',
    description: null,
    categories: ['Pharmacy', 'Gym', 'Health Insurance'],
    color: color('Red'),
    isActive: true,
  },
  {
    name: 'Summer holiday',
    description: 'Saved up for last summer; closed until the next trip',
    categories: ['Travel'],
    color: color('Cyan'),
    isActive: false,
  },
];

export interface PlannedSplit {
  transactionId: number;
  splits: { amount: number; category: string; splitNote?: string }[];
}

interface SplitRule {
  category: string;
  /** Smallest magnitude worth splitting, cents. */
  minCents: number;
  /** How many months (newest first, one purchase each) get a split. */
  months: number;
  other: string;
  /** The other category's share. */
  share: number;
  note: string;
}

const SPLIT_RULES: SplitRule[] = [
  {
    category: 'Groceries',
    minCents: 8000,
    months: 4,
    other: 'Household',
    share: 0.3,
    note: 'Cleaning supplies and paper goods',
  },
  {
    category: 'Household',
    minCents: 6000,
    months: 3,
    other: 'Gifts',
    share: 0.4,
    note: 'Birthday present bought in the same order',
  },
];

/**
 * Chooses split candidates among the imported transactions: for each rule, the largest purchase
 * of each of the newest months that has one, split into the category and another (signs kept,
 * parts summing to the parent exactly).
 */
export function planSplits(transactions: readonly TransactionDto[]): PlannedSplit[] {
  const planned: PlannedSplit[] = [];
  for (const rule of SPLIT_RULES) {
    const largestByMonth = new Map<string, TransactionDto>();
    for (const tx of transactions) {
      if (tx.isSplit || tx.parentTransactionId !== null || tx.amount >= 0 || -tx.amount < rule.minCents) continue;
      if (nameKey(tx.category) !== nameKey(rule.category)) continue;
      const month = tx.postDate.slice(0, 7);
      const best = largestByMonth.get(month);
      if (!best || tx.amount < best.amount || (tx.amount === best.amount && tx.id < best.id))
        largestByMonth.set(month, tx);
    }
    // Latest months first (YYYY-MM text sorts by date; each month appears once).
    const latest = [...largestByMonth].sort(([a], [b]) => (a < b ? 1 : -1)).slice(0, rule.months);
    for (const [, parent] of latest) {
      const other = -Math.max(1, Math.round(-parent.amount * rule.share));
      planned.push({
        transactionId: parent.id,
        splits: [
          { amount: parent.amount - other, category: rule.category },
          { amount: other, category: rule.other, splitNote: rule.note },
        ],
      });
    }
  }
  return planned;
}

/**
 * Transactions worth re-typing after import (an upload gives a whole file one type): transfers
 * between own accounts, pay into checking and refunds onto the card.
 */
export function retypeTargets(transactions: readonly TransactionDto[]): { transfer: number[]; credit: number[] } {
  const transfer: number[] = [];
  const credit: number[] = [];
  for (const tx of transactions) {
    const category = nameKey(tx.category);
    if (category === 'savings transfer' || category === 'credit card payment') transfer.push(tx.id);
    else if ((category === 'salary' || category === 'refunds') && tx.amount > 0 && tx.type !== 'credit')
      credit.push(tx.id);
  }
  return { transfer, credit };
}
