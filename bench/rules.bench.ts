/**
 * Rules benchmark: a 100,000-row CSV import through POST /api/upload by a user with no
 * rules against the same import by a user with 200 enabled rules (contains, starts with, equals,
 * regular expressions, amounts and accounts; about half the rows match one), on the production
 * server bundle in its own process. Median of 5 imports each, alternating, each into a fresh
 * account, with "Apply confident suggestions" off (rules alone), then 3 each with it on; wall time
 * and the server's CPU time per import (steadier on a shared machine). Target: the rules add at most 20% to the import's time (ratio <= 1.20).
 * Also prints the rules step alone (RuleSet over the same rows, in this process).
 */
import { runSteps } from '../src/shared/csv/steps';
import { planImportRows, RuleSet, type RuleDto } from '../src/shared/rules';
import { registerUser, rest } from '../tests/helpers/http';
import { cpuTimeMs, startServerProcess } from './server-process';
import os from 'node:os';
import { median, ms } from './stats';

const ROWS = 100_000;
const RUNS = 5;

/** Merchants as banks write them: card prefixes, store numbers, cities. */
const MERCHANTS = [
  'POS STARBUCKS #{n} SEATTLE WA',
  'TESCO STORES {n} LONDON',
  'AMZN Mktp US*{n}',
  'UBER *TRIP {n}',
  'SHELL OIL {n}',
  'NETFLIX.COM',
  'SPOTIFY P{n}',
  'CARD PAYMENT WHOLE FOODS {n}',
  'Direct Debit BRITISH GAS',
  'PAYPAL *EBAY {n}',
  'LIDL GB {n}',
  'Café Nero {n}',
  'TFL TRAVEL CH {n}',
  'DELIVEROO {n}',
];

function generateCsv(): string {
  const lines = ['Date,Description,Amount'];
  for (let i = 0; i < ROWS; i += 1) {
    const day = new Date(Date.UTC(2015, 0, 1) + Math.floor(i / 30) * 86_400_000).toISOString().slice(0, 10);
    const cents = ((i * 7919) % 25000) + 1;
    const base = i % 3 === 0 ? MERCHANTS[i % MERCHANTS.length] : `Shop ${i % 4999} REF{n}`;
    lines.push(
      `${day},${base.replace('{n}', String(i % 997))},-${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** 200 rules: most never match (other merchants), as a real list of rules grows. */
function generateRules(): Omit<RuleDto, 'id'>[] {
  const rules: Omit<RuleDto, 'id'>[] = [];
  const add = (name: string, conditions: RuleDto['conditions'], actions: RuleDto['actions']) =>
    rules.push({ name, conditions, actions, priority: (rules.length % 50) * 10, enabled: true });
  const words = [
    'starbucks',
    'tesco',
    'amzn',
    'uber',
    'shell',
    'netflix',
    'spotify',
    'whole foods',
    'british gas',
    'ebay',
    'lidl',
    'café nero',
    'tfl',
    'deliveroo',
  ];
  for (const word of words)
    add(
      `${word} category`,
      [
        { field: 'description', op: 'contains', value: word },
        { field: 'amount', op: 'lt', value: 0 },
      ],
      { category: `Cat ${word}` },
    );
  for (let i = 0; rules.length < 120; i += 1)
    add(`other ${i}`, [{ field: 'description', op: 'contains', value: `merchant-${i}` }], {
      category: `Other ${i % 20}`,
    });
  for (let i = 0; rules.length < 150; i += 1)
    add(`starts ${i}`, [{ field: 'description', op: 'startsWith', value: `store ${i} ` }], { type: 'transfer' });
  for (let i = 0; rules.length < 170; i += 1)
    add(`equals ${i}`, [{ field: 'description', op: 'equals', value: `exact payee ${i}` }], {
      description: `Payee ${i}`,
    });
  for (let i = 0; rules.length < 190; i += 1)
    add(`regex ${i}`, [{ field: 'description', op: 'matches', value: `^ref${i}\\d+ [a-z]+$` }], { category: 'Regex' });
  for (let i = 0; rules.length < 195; i += 1)
    add(`amount ${i}`, [{ field: 'amount', op: 'between', value: [-100_000 - i, -99_000] }], { category: 'Big' });
  for (let i = 0; rules.length < 200; i += 1)
    add(
      `account ${i}`,
      [
        { field: 'account', op: 'equals', value: `Savings ${i}` },
        { field: 'amount', op: 'gt', value: 0 },
      ],
      { type: 'credit' },
    );
  return rules;
}

export default async function run(): Promise<void> {
  const csv = generateCsv();
  const rules = generateRules();
  const server = await startServerProcess({ UPLOAD_LIMIT_BYTES: String(50 * 1024 * 1024) });
  try {
    const plain = await registerUser(server.url);
    const ruled = await registerUser(server.url);
    for (const rule of rules) {
      // The rules' categories are created with them, as a person does in the rule form.
      const res = await rest(server.url, 'POST', '/api/rules', {
        token: ruled.accessToken,
        body: { ...rule, createCategory: true },
      });
      if (res.status !== 201) throw new Error(`rule refused: ${JSON.stringify(res.body)}`);
    }
    const importAs = async (token: string, account: string, applySuggestions: boolean) => {
      await rest(server.url, 'POST', '/api/accounts', {
        token,
        body: { name: account, type: 'checking', applySuggestions },
      });
      const body = new FormData();
      body.append('file', new Blob([csv]), 'bench.csv');
      body.append('account', account);
      const cpu = cpuTimeMs(server.child.pid!);
      const start = performance.now();
      const res = await rest(server.url, 'POST', '/api/upload', { token, body });
      if (res.status !== 201) throw new Error(`import failed: ${JSON.stringify(res.body)}`);
      return { wall: performance.now() - start, cpu: cpuTimeMs(server.child.pid!) - cpu };
    };
    /** Imports alternating between the two users, each into a fresh account. */
    const compare = async (label: string, runs: number, applySuggestions: boolean) => {
      const without: { wall: number; cpu: number }[] = [];
      const withRules: { wall: number; cpu: number }[] = [];
      for (let i = 0; i < runs; i += 1) {
        without.push(await importAs(plain.accessToken, `${label} ${i}`, applySuggestions));
        withRules.push(await importAs(ruled.accessToken, `${label} ${i}`, applySuggestions));
      }
      const wall = (list: { wall: number }[]) => list.map((r) => r.wall);
      const cpu = (list: { cpu: number }[]) => list.map((r) => r.cpu);
      return {
        without,
        withRules,
        wallRatio: median(wall(withRules)) / median(wall(without)),
        cpuRatio: median(cpu(withRules)) / median(cpu(without)),
        wall,
        cpu,
      };
    };
    // The rules alone: both users' accounts with "Apply confident suggestions" off, so the rows the
    // rules categorise do not also make the learner work (its cost is bench/suggest.bench.ts's).
    const rulesOnly = await compare('Checking', RUNS, false);
    const list = (
      await rest(
        server.url,
        'GET',
        '/api/transactions?start_date=2015-01-01&end_date=2015-01-31&account=Checking%200',
        { token: ruled.accessToken },
      )
    ).body as { category: string | null }[];
    const categorised = list.filter((t) => t.category !== null).length;
    const { without, withRules, wall, cpu } = rulesOnly;
    console.log(
      `100,000-row import without rules: median ${ms(median(wall(without)))} (${wall(without).map(ms).join(', ')}); server CPU median ${ms(median(cpu(without)))}`,
    );
    console.log(
      `100,000-row import with 200 enabled rules: median ${ms(median(wall(withRules)))} (${wall(withRules).map(ms).join(', ')}); server CPU median ${ms(median(cpu(withRules)))}; ${categorised} of the first month's ${list.length} rows categorised by rules`,
    );
    console.log(
      `ratio with/without rules: wall ${rulesOnly.wallRatio.toFixed(2)}, server CPU ${rulesOnly.cpuRatio.toFixed(2)} (target <= 1.20); load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
    );
    // The same with suggestions on (the default): the rules' categories become history the learner
    // learns, and it then suggests for the rows no rule categorised.
    const withSuggestions = await compare('Suggesting', 3, true);
    console.log(
      `with "Apply confident suggestions" on for both (the user with rules also has their categorised history): ratio wall ${withSuggestions.wallRatio.toFixed(2)}, server CPU ${withSuggestions.cpuRatio.toFixed(2)}`,
    );
  } finally {
    await server.close();
  }

  // The rules step alone, in this process.
  const compiled = RuleSet.compile(rules.map((rule, i) => ({ ...rule, id: i + 1 })));
  const rows = csv
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const [postDate, description, amount] = line.split(',');
      return { line: 0, postDate, description, amount: Math.round(Number(amount) * 100), category: null };
    });
  const typeOf = () => 'debit' as const;
  const time = (set: RuleSet) => {
    const start = performance.now();
    runSteps(planImportRows(rows, set.forAccount('Checking', 'USD'), 'Checking', typeOf));
    return performance.now() - start;
  };
  time(compiled); // warm up
  const empty = RuleSet.compile([]);
  console.log(
    `rules step alone over ${ROWS.toLocaleString('en-US')} rows: 200 rules ${ms(median([time(compiled), time(compiled), time(compiled)]))}, no rules ${ms(median([time(empty), time(empty), time(empty)]))}`,
  );
}
