/**
 * Schedules benchmark: 200 schedules (every pattern the form offers: month days up to the 31st,
 * the last day, weekly, every two weeks, the nth weekday, yearly, every N days; weekend rules)
 * expanded over 2 years, and their occurrences matched to 100,000 transactions in 5 accounts
 * (the schedules' own rows, a day or two off and within tolerance, among the rest). Target: both
 * together under 1 s. Beside it, in the same run, a floor: sorting the 100,000 rows by account
 * and date and reading each once, which any matching does at least. Median of 5 runs each, as
 * wall time and as this process's CPU time (steadier on a shared machine; the target is judged on it).
 */
import { addDays } from '../src/shared/dates/calendar';
import {
  expandSchedule,
  matchOccurrences,
  type CandidateTransaction,
  type PendingOccurrence,
  type ScheduleTiming,
} from '../src/shared/schedules';
import { median, ms } from './stats';

const SCHEDULES = 200;
const TRANSACTIONS = 100_000;
const ACCOUNTS = 5;
const FROM = '2024-01-01';
const TO = '2025-12-31';
const RUNS = 5;
const TARGET_MS = 1000;

const RULES = [
  (i: number) => `FREQ=MONTHLY;BYMONTHDAY=${(i % 31) + 1}`,
  () => 'FREQ=MONTHLY;BYMONTHDAY=-1',
  (i: number) => `FREQ=WEEKLY;BYDAY=${['MO', 'TU', 'WE', 'TH', 'FR'][i % 5]}`,
  (i: number) => `FREQ=WEEKLY;INTERVAL=2;BYDAY=${['MO', 'FR'][i % 2]}`,
  (i: number) => `FREQ=MONTHLY;BYDAY=${(i % 4) + 1}${['MO', 'WE', 'FR'][i % 3]}`,
  (i: number) => `FREQ=YEARLY;BYMONTH=${(i % 12) + 1};BYMONTHDAY=${(i % 28) + 1}`,
  (i: number) => `FREQ=DAILY;INTERVAL=${(i % 5) + 3}`,
];

interface BenchSchedule extends ScheduleTiming {
  id: number;
  accountId: number;
  amount: number;
  description: string;
}

function schedules(): BenchSchedule[] {
  return Array.from({ length: SCHEDULES }, (_, i) => ({
    id: i + 1,
    accountId: (i % ACCOUNTS) + 1,
    amount: -((i * 7919) % 200_000) - 500,
    description: `PAYEE ${i} DIRECT DEBIT`,
    recurrence: (RULES[i % RULES.length] ?? RULES[0])(i),
    startDate: addDays(FROM, i % 40),
    end: 'never',
    weekendRule: (['none', 'before', 'after'] as const)[i % 3] ?? 'none',
  }));
}

/** The schedules' own payments (a day or two off, amounts within 2 %), then noise up to TRANSACTIONS rows. */
function transactions(expanded: PendingOccurrence[]): CandidateTransaction[] {
  const rows: CandidateTransaction[] = [];
  for (const o of expanded) {
    if (rows.length >= TRANSACTIONS / 2) break;
    rows.push({
      id: rows.length + 1,
      accountId: o.accountId,
      date: addDays(o.date, (o.id % 5) - 2),
      amount: o.amount + (o.id % 3) * Math.round(o.amount / 100),
      description: `${o.description} REF${o.id}`,
    });
  }
  for (let i = rows.length; i < TRANSACTIONS; i++)
    rows.push({
      id: i + 1,
      accountId: (i % ACCOUNTS) + 1,
      date: addDays(FROM, i % 730),
      amount: -((i * 104_729) % 30_000) - 1,
      description: `SHOP ${i % 4999} #${i % 97}`,
    });
  return rows;
}

function expandAll(list: readonly BenchSchedule[]): PendingOccurrence[] {
  const out: PendingOccurrence[] = [];
  for (const s of list)
    for (const dates of expandSchedule(s, FROM, TO))
      out.push({
        id: out.length + 1,
        scheduleId: s.id,
        accountId: s.accountId,
        date: dates.date,
        amount: s.amount,
        toleranceBasisPoints: 250,
        window: 3,
        description: s.description,
      });
  return out;
}

/** What any matcher does at least: the rows in account and date order, each read once. */
function floor(rows: readonly CandidateTransaction[]): number {
  const sorted = [...rows].sort(
    (a, b) => a.accountId - b.accountId || (a.date < b.date ? -1 : a.date > b.date ? 1 : 0),
  );
  let total = 0;
  for (const row of sorted) total += row.amount;
  return total;
}

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

/** Wall and CPU time of `work`, in ms. */
function timed(work: () => void): { wall: number; cpu: number } {
  const cpu = process.cpuUsage();
  const started = performance.now();
  work();
  return { wall: performance.now() - started, cpu: cpuMs(process.cpuUsage(cpu)) };
}

export default function run(): Promise<void> {
  const list = schedules();
  const rows = transactions(expandAll(list));
  const runs: { expand: number; match: number; wall: number; cpu: number; floorWall: number; floorCpu: number }[] = [];
  let occurrences = 0;
  let matched = 0;
  for (let i = 0; i < RUNS; i++) {
    let expanded: PendingOccurrence[] = [];
    const expand = timed(() => (expanded = expandAll(list)));
    const match = timed(() => (matched = matchOccurrences(expanded, rows).length));
    occurrences = expanded.length;
    const floorTime = timed(() => floor(rows));
    runs.push({
      expand: expand.wall,
      match: match.wall,
      wall: expand.wall + match.wall,
      cpu: expand.cpu + match.cpu,
      floorWall: floorTime.wall,
      floorCpu: floorTime.cpu,
    });
  }
  const at = (key: keyof (typeof runs)[number]) => median(runs.map((r) => r[key]));
  console.log(
    `${SCHEDULES} schedules over ${FROM}..${TO}: ${occurrences} occurrences; ${TRANSACTIONS} transactions, ${matched} matched`,
  );
  console.log(
    `wall: expand ${ms(at('expand'))}, match ${ms(at('match'))}, together ${ms(at('wall'))}; floor ${ms(at('floorWall'))} (${(at('wall') / at('floorWall')).toFixed(1)}x)`,
  );
  console.log(
    `CPU: together ${ms(at('cpu'))} (target < ${TARGET_MS} ms: ${at('cpu') < TARGET_MS ? 'met' : 'NOT met'}); floor (sort the rows by account and date, read each once) ${ms(at('floorCpu'))}: ${(at('cpu') / at('floorCpu')).toFixed(1)}x the floor`,
  );
  return Promise.resolve();
}
