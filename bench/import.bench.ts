/**
 * Import benchmark: first 10k rows, 100k rows and a ~10 MB file, each into a fresh server
 * (peak RSS of each and their spread, by default and under a V8 heap limit); then a generated
 * 100,000-row bank CSV through POST /api/upload (rows/s and the server's peak RSS), the same file again (all duplicates), GET /api/health latency while
 * an import runs, and the floor: csv-parse + better-sqlite3 inserts in one transaction, same run.
 * The server is the production bundle (esbuild, as `npm run build`) in its own process, so
 * its memory and its answers are measured as a user's server would show them.
 * Targets on a 2-core machine: both imports at least half the floor's rate, peak RSS < 300 MB,
 * health within 200 ms during an import.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { registerUser, rest } from '../tests/helpers/http';
import { cpuTimeMs, mainThreadCpuMs, peakRss, startServerProcess } from './server-process';
import { mb, median, ms } from './stats';
import { must } from '../src/shared/must';

const ROWS = 100_000;

function generateCsv(rows = ROWS): string {
  const lines = ['Date,Description,Amount,Category'];
  const merchants = [
    'Grocery Mart',
    'Coffee Corner',
    'Fuel Stop',
    'Book Nook',
    'Pharmacy Plus',
    'Cinema City',
    'Hardware Hub',
  ];
  for (let i = 0; i < rows; i += 1) {
    const day = new Date(Date.UTC(2015, 0, 1) + Math.floor(i / 30) * 86_400_000);
    const date = `${String(day.getUTCMonth() + 1).padStart(2, '0')}/${String(day.getUTCDate()).padStart(2, '0')}/${day.getUTCFullYear()}`;
    const cents = ((i * 7919) % 25000) + 1;
    lines.push(
      `${date},${merchants[i % merchants.length]} #${i % 997},-${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')},Cat ${i % 20}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** 100,000 OFX 1.x entries (SGML, as most banks send them). */
function generateOfx(): string {
  const parts = [
    'OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><ACCTID>1</BANKACCTFROM><BANKTRANLIST>',
  ];
  for (let i = 0; i < ROWS; i += 1) {
    const day = new Date(Date.UTC(2015, 0, 1) + Math.floor(i / 30) * 86_400_000)
      .toISOString()
      .slice(0, 10)
      .replace(/-/g, '');
    const cents = ((i * 7919) % 25000) + 1;
    parts.push(
      `<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>${day}120000[-5:EST]<TRNAMT>-${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}<FITID>F${i}<NAME>Shop ${i % 997}<MEMO>Card ${i % 13}</STMTTRN>`,
    );
  }
  parts.push('</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>');
  return parts.join('\n');
}

/** 100,000 CAMT.053 entries. */
function generateCamt(): string {
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt>',
  ];
  for (let i = 0; i < ROWS; i += 1) {
    const day = new Date(Date.UTC(2015, 0, 1) + Math.floor(i / 30) * 86_400_000).toISOString().slice(0, 10);
    const cents = ((i * 7919) % 25000) + 1;
    parts.push(
      `<Ntry><Amt Ccy="EUR">${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}</Amt><CdtDbtInd>DBIT</CdtDbtInd><BookgDt><Dt>${day}</Dt></BookgDt><AcctSvcrRef>R${i}</AcctSvcrRef><NtryDtls><TxDtls><RltdPties><Cdtr><Nm>Shop ${i % 997}</Nm></Cdtr></RltdPties><RmtInf><Ustrd>Invoice ${i}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`,
    );
  }
  parts.push('</Stmt></BkToCstmrStmt></Document>');
  return parts.join('\n');
}

/** Files shaped to make a reader slow (see tests/security/upload-shapes.test.ts). */
function pathologicalFiles(): [string, string][] {
  const rows = (header: string, n: number, line: (i: number) => string) =>
    [header, ...Array.from({ length: n }, (_, i) => line(i))].join('\n');
  return [
    [
      '50,000-comma header over 40,000 rows',
      rows(`Date,Description,Amount${','.repeat(50_000)}`, 40_000, (i) => `2024-07-01,r${i},-1`),
    ],
    [
      '199 empty columns on 40,000 rows',
      rows(`Date,Description,Amount${','.repeat(196)}`, 40_000, (i) => `2024-07-01,r${i},-1${','.repeat(196)}`),
    ],
    ['one 5 MB line', `Date,Description,Amount\n2024-07-01,${'x'.repeat(5 * 1024 * 1024)},-1\n`],
    ['100,000 one-character rows', 'a\n'.repeat(100_000)],
    [
      'XML bomb',
      `<?xml version="1.0"?><!DOCTYPE l [${Array.from({ length: 10 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join('')}]><Document><BkToCstmrStmt><Stmt><Ntry><Amt>&l10;</Amt></Ntry></Stmt></BkToCstmrStmt></Document>`,
    ],
    ['500,000 nested elements', `<?xml version="1.0"?><Document><BkToCstmrStmt>${'<Stmt>'.repeat(500_000)}`],
  ];
}

/** Uploads up to 50 MB: the ~10 MB and 26 MB files are above the default limit. */
const UPLOADS = { UPLOAD_LIMIT_BYTES: String(50 * 1024 * 1024) };

/** The floor's wall and CPU time (ms). */
function floor(csv: string): { wall: number; cpu: number } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bt-floor-'));
  const db = new Database(path.join(dir, 'floor.sqlite'));
  db.pragma('journal_mode = WAL');
  db.exec('create table t (id integer primary key, post_date text, description text, amount integer, category text)');
  const start = performance.now();
  const cpu = process.cpuUsage();
  const records = parse(csv, { from_line: 2 });
  const insert = db.prepare('insert into t (post_date, description, amount, category) values (?, ?, ?, ?)');
  db.transaction(() => {
    for (const [date, description, amount, category] of records) {
      const [m, d, y] = date.split('/');
      insert.run(`${y}-${m}-${d}`, description, Math.round(Number(amount) * 100), category);
    }
  })();
  const elapsed = performance.now() - start;
  const used = process.cpuUsage(cpu);
  db.close();
  rmSync(dir, { recursive: true, force: true });
  return { wall: elapsed, cpu: (used.user + used.system) / 1000 };
}

/**
 * A second floor: the same parse and prepared inserts into a copy of the app's own database (its schema, with the
 * transaction table's indexes and foreign keys on, as the app runs it), each row with the columns an import
 * fills (user, account, category, batch). The first floor's table has no secondary index; the app's keeps three
 * (search by date, registers by account, batches), which every insert must update. `copy` is a copy of the
 * server's database with the bench user and account in it.
 */
function floorOnAppSchema(csv: string, copy: string): { wall: number; cpu: number } {
  const db = new Database(copy);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  const user = must(
    db.prepare<[], { id: number }>('select id from user order by id limit 1').get(),
    'the bench user is in the copy',
  ).id;
  const account = must(
    db.prepare<[number], { id: number }>('select id from account where user_id = ? order by id limit 1').get(user),
    'the bench account is in the copy',
  ).id;
  const start = performance.now();
  const cpu = process.cpuUsage();
  const records: string[][] = parse(csv, { from_line: 2 });
  const categories = new Map<string, number>();
  const addCategory = db.prepare('insert into category (user_id, name, name_key, created_at) values (?, ?, ?, ?)');
  const insert = db.prepare(
    'insert into `transaction` (user_id, account_id, category_id, post_date, description, amount, type, is_split, batch_id, created_at) values (?, ?, ?, ?, ?, ?, ?, 0, ?, ?)',
  );
  const now = new Date().toISOString();
  db.transaction(() => {
    const batch = 'floor-batch-0000-0000-000000000000';
    db.prepare('insert into batch (id, user_id, account_id, upload_date, file_name) values (?, ?, ?, ?, ?)').run(
      batch,
      user,
      account,
      now,
      'bench.csv',
    );
    for (const record of records) {
      const [date = '', description = '', amount = '', category = ''] = record;
      const [m, d, y] = date.split('/');
      let categoryId = categories.get(category);
      if (categoryId === undefined) {
        categoryId = Number(addCategory.run(user, category, category.toLowerCase(), now).lastInsertRowid);
        categories.set(category, categoryId);
      }
      insert.run(
        user,
        account,
        categoryId,
        `${y}-${m}-${d}`,
        description,
        Math.round(Number(amount) * 100),
        'debit',
        batch,
        now,
      );
    }
  })();
  const elapsed = performance.now() - start;
  const used = process.cpuUsage(cpu);
  db.close();
  return { wall: elapsed, cpu: (used.user + used.system) / 1000 };
}

/** Rows of the generated CSV that make a file of about `bytes`. */
function rowsForBytes(bytes: number): number {
  const sample = generateCsv(1000);
  return Math.round((bytes / Buffer.byteLength(sample)) * 1000);
}

/**
 * Memory flat as files grow: 10k rows, 100k rows and a ~10 MB file, each imported into a fresh
 * server process (with `nodeArgs` as node flags); the peak RSS of each, its rate against the floor
 * and their spread (goal: under 50 MB apart, each under 200 MB).
 */
export async function memoryBySize(nodeArgs: string[] = []): Promise<number[]> {
  const sizes: [string, number][] = [
    ['10k rows', 10_000],
    ['100k rows', 100_000],
    ['~10 MB file', rowsForBytes(10 * 1024 * 1024)],
  ];
  const peaks: number[] = [];
  for (const [name, rows] of sizes) {
    const file = generateCsv(rows);
    const server = await startServerProcess(UPLOADS, { nodeArgs });
    try {
      const idle = peakRss(must(server.child.pid, 'a spawned server has a pid'));
      const user = await registerUser(server.url);
      await rest(server.url, 'POST', '/api/accounts', {
        token: user.accessToken,
        body: { name: 'Checking', type: 'checking' },
      });
      const body = new FormData();
      body.append('file', new Blob([file]), 'bench.csv');
      body.append('account', 'Checking');
      body.append('transactionType', 'debit');
      const start = performance.now();
      const res = await rest(server.url, 'POST', '/api/upload', { token: user.accessToken, body });
      const elapsed = performance.now() - start;
      const peak = peakRss(must(server.child.pid, 'a spawned server has a pid'));
      peaks.push(peak);
      const floorMs = floor(file).wall;
      console.log(
        `  ${name} (${rows} rows, ${mb(Buffer.byteLength(file))}) in a fresh server: ${String(res.body.message)} in ${ms(elapsed)} = ${((rows / elapsed) * 1000).toFixed(0)} rows/s, ${(floorMs / elapsed).toFixed(2)}x the floor (${ms(floorMs)}); peak RSS ${mb(peak)} (after start ${mb(idle)})`,
      );
    } finally {
      await server.close();
    }
  }
  const flags = nodeArgs.length > 0 ? ` with node ${nodeArgs.join(' ')}` : '';
  console.log(
    `peak RSS spread over 10k / 100k / ~10 MB imports${flags}: ${mb(Math.max(...peaks) - Math.min(...peaks))} (goal < 50 MB), largest ${mb(Math.max(...peaks))} (goal < 200 MB)`,
  );
  return peaks;
}

/** Each 100,000-entry statement (OFX, CAMT.053) imported into a fresh server: rate and that import's own peak RSS. */
async function statementsInFreshServers(): Promise<void> {
  for (const [name, make] of [
    ['OFX', generateOfx],
    ['CAMT.053', generateCamt],
  ] as const) {
    const file = make();
    const server = await startServerProcess(UPLOADS);
    try {
      const pid = must(server.child.pid, 'a spawned server has a pid');
      const idle = peakRss(pid);
      const user = await registerUser(server.url);
      await rest(server.url, 'POST', '/api/accounts', {
        token: user.accessToken,
        body: { name: 'Checking', type: 'checking' },
      });
      const body = new FormData();
      body.append('file', new Blob([file]), 'bench.xml');
      body.append('account', 'Checking');
      const cpu = cpuTimeMs(pid);
      const start = performance.now();
      const res = await rest(server.url, 'POST', '/api/upload', { token: user.accessToken, body });
      const elapsed = performance.now() - start;
      const used = cpuTimeMs(pid) - cpu;
      console.log(
        `  ${name}, ${ROWS} entries (${mb(Buffer.byteLength(file))}) in a fresh server: ${String(res.body.message)} in ${ms(elapsed)} = ${((ROWS / elapsed) * 1000).toFixed(0)} entries/s (server CPU ${ms(used)}; target >= 30000/s), peak RSS ${mb(peakRss(pid))} (after start ${mb(idle)}; target < 300 MB)`,
      );
    } finally {
      await server.close();
    }
  }
}

export default async function run(): Promise<void> {
  await memoryBySize();
  await statementsInFreshServers();
  // The V8 heap limit as a secondary lever (not set by the app): the live heap of an import stays
  // near 50 MB, and what is left of the spread is garbage waiting for a full collection.
  await memoryBySize(['--max-old-space-size=96']);
  const csv = generateCsv();
  console.log(`generated ${ROWS} rows (${mb(Buffer.byteLength(csv))})`);
  const server = await startServerProcess(UPLOADS);
  try {
    const idle = peakRss(server.child.pid!);
    const user = await registerUser(server.url);
    await rest(server.url, 'POST', '/api/accounts', {
      token: user.accessToken,
      body: { name: 'Checking', type: 'checking' },
    });
    // The second floor's database: the server's own, with this user and account, before the imports.
    const schemaCopyDir = mkdtempSync(path.join(os.tmpdir(), 'bt-floor-app-'));
    const schemaCopy = path.join(schemaCopyDir, 'app.sqlite');
    const source = new Database(server.databaseFile, { readonly: true, fileMustExist: true });
    await source.backup(schemaCopy);
    source.close();
    const upload = async (file: string = csv, account = 'Checking', extra: Record<string, string> = {}) => {
      const body = new FormData();
      body.append('file', new Blob([file]), 'bench.csv');
      body.append('account', account);
      body.append('transactionType', 'debit');
      for (const [key, value] of Object.entries(extra)) body.append(key, value);
      const cpu = cpuTimeMs(server.child.pid!);
      const mainCpu = mainThreadCpuMs(server.child.pid!);
      const start = performance.now();
      const healthTimes: number[] = [];
      let done = false;
      // Read through a call: `done` is set by the request's callback, which control-flow narrowing cannot follow.
      const isDone = () => done;
      const request = rest(server.url, 'POST', '/api/upload', { token: user.accessToken, body }).finally(() => {
        done = true;
      });
      while (!isDone()) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        if (isDone()) break;
        const t0 = performance.now();
        await rest(server.url, 'GET', '/api/health');
        healthTimes.push(performance.now() - t0);
      }
      const res = await request;
      return {
        elapsed: performance.now() - start,
        cpu: cpuTimeMs(server.child.pid!) - cpu,
        mainCpu: mainThreadCpuMs(server.child.pid!) - mainCpu,
        body: res.body,
        healthTimes,
      };
    };
    const first = await upload();
    const second = await upload();
    const floorTime = floor(csv);
    const floorMs = floorTime.wall;
    const appFloor = floorOnAppSchema(csv, schemaCopy);
    rmSync(schemaCopyDir, { recursive: true, force: true });
    const rate = (elapsedMs: number) => (ROWS / elapsedMs) * 1000;
    console.log(
      `first import: ${first.body.message} in ${ms(first.elapsed)} = ${rate(first.elapsed).toFixed(0)} rows/s (server CPU ${ms(first.cpu)} = ${rate(first.cpu).toFixed(0)} rows per CPU second; main thread ${ms(first.mainCpu)})`,
    );
    console.log(
      `second import (all duplicates): ${second.body.message} in ${ms(second.elapsed)} = ${rate(second.elapsed).toFixed(0)} rows/s (server CPU ${ms(second.cpu)}; main thread ${ms(second.mainCpu)})`,
    );
    console.log(
      `floor (csv-parse + better-sqlite3, one transaction): ${ms(floorMs)} = ${rate(floorMs).toFixed(0)} rows/s (CPU ${ms(floorTime.cpu)})`,
    );
    console.log(
      `ratio to floor: first ${(rate(first.elapsed) / rate(floorMs)).toFixed(2)}, second ${(rate(second.elapsed) / rate(floorMs)).toFixed(2)} (target >= 0.7)`,
    );
    console.log(
      `floor on the app's own schema (its indexes and foreign keys, the columns an import fills): ${ms(appFloor.wall)} = ${rate(appFloor.wall).toFixed(0)} rows/s (CPU ${ms(appFloor.cpu)}), ${(floorMs / appFloor.wall).toFixed(2)}x the first floor's rate; first import ${(appFloor.wall / first.elapsed).toFixed(2)}x this floor by wall, ${(appFloor.cpu / first.cpu).toFixed(2)}x by CPU`,
    );
    console.log(
      `ratio to floor by CPU time (steadier on a shared machine): first ${(floorTime.cpu / first.cpu).toFixed(2)}, second ${(floorTime.cpu / second.cpu).toFixed(2)}; by the server's main-thread CPU: first ${(floorTime.cpu / first.mainCpu).toFixed(2)}, second ${(floorTime.cpu / second.mainCpu).toFixed(2)}; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
    );
    const health = [...first.healthTimes, ...second.healthTimes];
    const worst = (times: number[]) => ms(times.length ? Math.max(...times) : 0);
    console.log(
      `GET /api/health during imports: ${health.length} calls, median ${ms(health.length ? median(health) : 0)}, max ${ms(health.length ? Math.max(...health) : 0)} (first import ${worst(first.healthTimes)}, second ${worst(second.healthTimes)}; target < 200 ms)`,
    );
    console.log(`server peak RSS: ${mb(peakRss(server.child.pid!))} (after start: ${mb(idle)}; target < 300 MB)`);

    for (const [name, make] of [
      ['OFX', generateOfx],
      ['CAMT.053', generateCamt],
    ] as const) {
      const file = make();
      await rest(server.url, 'POST', '/api/accounts', { token: user.accessToken, body: { name, type: 'checking' } });
      const run = await upload(file, name);
      console.log(
        `${name} import of ${ROWS} entries (${mb(Buffer.byteLength(file))}): ${run.body.message} in ${ms(run.elapsed)} = ${rate(run.elapsed).toFixed(0)} entries/s (target >= 30000; server CPU ${ms(run.cpu)} = ${rate(run.cpu).toFixed(0)} entries per CPU second), health max ${worst(run.healthTimes)}, server peak RSS so far ${mb(peakRss(server.child.pid!))}`,
      );
    }

    const pathological: number[] = [];
    for (const [name, file] of pathologicalFiles()) {
      const run = await upload(file, 'Checking', { dryRun: 'true' });
      pathological.push(...run.healthTimes);
      console.log(
        `  ${name}: answered in ${ms(run.elapsed)} (${String(run.body.error ?? run.body.message).slice(0, 60)}), health max ${worst(run.healthTimes)}`,
      );
    }
    console.log(
      `pathological uploads: ${pathological.length} health calls, worst ${worst(pathological)} (target < 200 ms)`,
    );
  } finally {
    await server.close();
  }
}
