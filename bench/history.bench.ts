/**
 * History benchmark, on a real server in this process (SQLite): what recording the history adds to a 300-row
 * bulk edit (median of 40 after 15 untimed rounds of each, alternating, which goes first too; HISTORY_BULK_ROUNDS sets another number; wall time and the process's CPU) and to importing 100,000 rows (median of 5, alternating, which goes first too, each into a fresh
 * account, after an untimed one of each, each timed import's background checkpoint waited for outside its time), against the same calls with the recorder's writes turned off in the same run; and the first page of
 * the history of a user with 1,000,000 entries (median of 15). Targets: +10% on the bulk edit, +5% on the import,
 * the first page under 50 ms. Without recording, the import still asks the (empty) trash for duplicates.
 */
import { ChangeRecorder } from '../src/server/modules/history/recorder';
import { ok, signUp, type ApiUser } from '../tests/helpers/api';
import { rest } from '../tests/helpers/http';
import { startServer } from '../tests/helpers/server';
import { checkpointsSettled, median, ms } from './stats';

const BULK_ROWS = 300;
/** Rounds of the bulk edit (each with and without): more rounds, a longer history of the same rows. */
const BULK_ROUNDS = Number(process.env.HISTORY_BULK_ROUNDS ?? 40);
/** Untimed rounds of each before them. */
const BULK_WARMUP_ROUNDS = 15;
const IMPORT_ROWS = 100_000;
/** Timed imports of each kind, alternating, after one untimed import of each. */
const IMPORT_RUNS = 5;
const ENTRIES = 1_000_000;

function csv(rows: number, salt: string): string {
  const lines = ['Date,Description,Amount'];
  for (let i = 0; i < rows; i += 1) {
    const day = new Date(Date.UTC(2020, 0, 1) + Math.floor(i / 40) * 86_400_000).toISOString().slice(0, 10);
    lines.push(`${day},Shop ${i % 4999} ${salt},-${(i % 900) + 1}.${String(i % 100).padStart(2, '0')}`);
  }
  return `${lines.join('\n')}\n`;
}

async function upload(baseUrl: string, user: ApiUser, text: string, account: string) {
  ok(await user.post('/api/accounts', { name: account, type: 'checking' }));
  const body = new FormData();
  body.append('file', new Blob([text]), `${account}.csv`);
  body.append('account', account);
  body.append('transactionType', 'auto');
  return rest(baseUrl, 'POST', '/api/upload', { token: user.token, body });
}

/** Runs `work` with the recorder's writes switched off, as the same call would run without a history. */
async function withoutRecording<T>(work: () => Promise<T>): Promise<T> {
  const proto = ChangeRecorder.prototype;
  const saved = {
    // eslint-disable-next-line @typescript-eslint/unbound-method -- saved to be put back on the prototype they came from
    touch: proto.touch,
    // eslint-disable-next-line @typescript-eslint/unbound-method -- as above
    touchTransactions: proto.touchTransactions,
    // eslint-disable-next-line @typescript-eslint/unbound-method -- as above
    touchDeleteCascades: proto.touchDeleteCascades,
    // eslint-disable-next-line @typescript-eslint/unbound-method -- as above
    finish: proto.finish,
    // eslint-disable-next-line @typescript-eslint/unbound-method -- as above
    readBefore: proto.readBefore,
    // eslint-disable-next-line @typescript-eslint/unbound-method -- as above
    updated: proto.updated,
  };
  // eslint-disable-next-line @typescript-eslint/unbound-method -- a static method, put back as it was
  const recordImport = ChangeRecorder.recordImport;
  proto.touch = async () => {};
  proto.touchTransactions = async () => [];
  proto.touchDeleteCascades = async () => {};
  proto.finish = async () => null;
  proto.readBefore = () => {};
  proto.updated = () => {};
  ChangeRecorder.recordImport = async () => {};
  try {
    return await work();
  } finally {
    Object.assign(proto, saved);
    ChangeRecorder.recordImport = recordImport;
  }
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** Wall time and the whole process's CPU time (server, client and threads) of `work`, in ms. */
async function timedWithCpu(work: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const wall = await timed(work);
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

async function bulkEdit(url: string, user: ApiUser): Promise<void> {
  ok(await upload(url, user, csv(BULK_ROWS, 'bulk'), 'Bulk'));
  const rows = ok(await user.get<{ id: number }[]>('/api/transactions?start_date=2000-01-01&end_date=2100-01-01'));
  const ids = rows.map((row) => row.id);
  const edit = (category: string) => async () =>
    ok(await user.put('/api/transactions/bulk', { transactionIds: ids, updates: { category } }));
  // Untimed rounds of both first: V8 compiles each path's code over its first rounds, and the recording path has
  // more of it, so without them the median measures mostly that warm-up.
  for (let run = 0; run < BULK_WARMUP_ROUNDS; run += 1) {
    await edit(`Warm ${run}`)();
    await withoutRecording(edit(`Cold ${run}`));
  }
  const withIt: { wall: number; cpu: number }[] = [];
  const without: { wall: number; cpu: number }[] = [];
  for (let run = 0; run < BULK_ROUNDS; run += 1) {
    // Each timed edit starts with the one before it settled (its background checkpoint done); which kind goes
    // first alternates, so neither always runs on the longer history.
    for (const recording of run % 2 === 0 ? [true, false] : [false, true]) {
      await checkpointsSettled();
      if (recording) withIt.push(await timedWithCpu(edit(`With ${run}`)));
      else without.push(await withoutRecording(() => timedWithCpu(edit(`Without ${run}`))));
    }
  }
  const of = (runs: { wall: number; cpu: number }[], key: 'wall' | 'cpu') => median(runs.map((run) => run[key]));
  report(`bulk edit of ${BULK_ROWS} rows`, of(withIt, 'wall'), of(without, 'wall'), 1.1);
  report(`bulk edit of ${BULK_ROWS} rows, CPU`, of(withIt, 'cpu'), of(without, 'cpu'), 1.1);
}

async function importRows(url: string, user: ApiUser): Promise<void> {
  const text = csv(IMPORT_ROWS, 'import');
  const withIt: number[] = [];
  const without: number[] = [];
  // Each timed import starts with the one before it settled (its checkpoint done), and the first import of the
  // process (cold code) is not timed.
  const importAs = async (name: string, recording: boolean): Promise<number> => {
    const run = () => timed(async () => ok(await upload(url, user, text, name)));
    const took = recording ? await run() : await withoutRecording(run);
    await checkpointsSettled();
    return took;
  };
  await importAs('Warm with', true);
  await importAs('Warm without', false);
  for (let run = 0; run < IMPORT_RUNS; run += 1)
    for (const recording of run % 2 === 0 ? [true, false] : [false, true]) {
      if (recording) withIt.push(await importAs(`With ${run}`, true));
      else without.push(await importAs(`Without ${run}`, false));
    }
  report(`import of ${IMPORT_ROWS.toLocaleString('en')} rows`, median(withIt), median(without), 1.05);
}

function report(what: string, withIt: number, without: number, target: number): void {
  const ratio = withIt / without;
  console.log(
    `${what}: ${ms(withIt)} with the history, ${ms(without)} without; ratio ${ratio.toFixed(3)} (target <= ${target.toFixed(2)})`,
  );
}

export default async function historyBench(): Promise<void> {
  const server = await startServer();
  try {
    const user = await signUp(server.url);
    await bulkEdit(server.url, user);
    await importRows(server.url, user);
    await server.sql(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)
       insert into history_entry (created_at, user_id, kind, summary, state, row_count)
       select '2026-01-01T00:00:00.000Z', ?, 'edit', 'Edited “Shop ' || i || '”', 'done', 1 from n`,
      [ENTRIES, user.userId],
    );
    const page: number[] = [];
    for (let run = 0; run < 15; run += 1)
      page.push(await timed(async () => ok(await user.get('/api/history?limit=50'))));
    console.log(
      `first page of a history of ${ENTRIES.toLocaleString('en')} entries: ${ms(median(page))} (target < 50 ms)`,
    );
  } finally {
    await server.close();
  }
}
