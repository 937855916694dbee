/**
 * `npm run bench restore`: a large "all my data" document (RESTORE_BENCH_ROWS transactions, 270,000 by default, a
 * third of them split parents with two parts each: about 75 MB of JSON) restored into a fresh production server
 * while another client asks GET /api/health over and over; then the same document with every split's parts before
 * their parent and not adding up (refused with 400), and the valid one cut off before its end (400). Printed for each:
 * the answer, its wall time, the server's CPU, the longest health wait (goal <= 250 ms), any health answer that was
 * not 200, and the server's peak RSS (goal < 400 MB). On SQLite, and on PostgreSQL as a role without superuser or
 * BYPASSRLS when one answers at PG_ADMIN_URL.
 */
import { createScratchDatabase, DEFAULT_PG_ADMIN_URL, postgresAnswers } from '../src/server/db/pg-scratch';
import { largeExportJson } from '../tests/helpers/large-export';
import { LARGE_LISTS, largeListJson, type LargeList } from '../tests/helpers/large-lists';
import { registerUser } from '../tests/helpers/http';
import { rawRequest } from '../tests/helpers/stall-watch';
import { cpuTimeMs, peakRss, startServerProcess, type ServerProcess } from './server-process';

const ROWS = Number(process.env.RESTORE_BENCH_ROWS ?? 270_000);
/**
 * RESTORE_BENCH_LISTS=all (or a comma-separated list of tests/helpers/large-lists.ts's kinds): documents whose weight
 * is in another list than the transactions, RESTORE_BENCH_LIST_MB each (95 by default), in place of the three above.
 */
const LISTS = process.env.RESTORE_BENCH_LISTS;
const LIST_MB = Number(process.env.RESTORE_BENCH_LIST_MB ?? 95);
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

interface Health {
  longestMs: number;
  probes: number;
  notOk: number[];
}

/** Asks GET /api/health back to back until `done` settles. */
async function probeHealth(url: string, done: Promise<unknown>): Promise<Health> {
  let finished = false;
  void done.finally(() => {
    finished = true;
  });
  const health: Health = { longestMs: 0, probes: 0, notOk: [] };
  while (!finished) {
    const started = performance.now();
    const answer = await rawRequest(url, 'GET', '/api/health', {});
    health.longestMs = Math.max(health.longestMs, performance.now() - started);
    health.probes += 1;
    if (answer.status !== 200) health.notOk.push(answer.status);
  }
  return health;
}

async function restoreOnce(server: ServerProcess, label: string, body: Uint8Array): Promise<void> {
  const pid = server.child.pid ?? 0;
  const user = await registerUser(server.url);
  const cpuBefore = cpuTimeMs(pid);
  const started = performance.now();
  const restoring = rawRequest(server.url, 'POST', '/api/import', { token: user.accessToken, body });
  const health = await probeHealth(server.url, restoring);
  const answer = await restoring;
  const text = JSON.stringify(answer.body);
  console.log(
    `  ${label} (${mb(body.byteLength)}): ${answer.status} ${text.length > 140 ? `${text.slice(0, 140)}...` : text} in ${(
      (performance.now() - started) /
      1000
    ).toFixed(
      1,
    )} s, server CPU ${((cpuTimeMs(pid) - cpuBefore) / 1000).toFixed(1)} s; health: longest wait ${health.longestMs.toFixed(0)} ms over ${health.probes} probes (goal <= 250 ms)${health.notOk.length ? `, NOT 200: ${health.notOk.join(', ')}` : ''}; server peak RSS so far ${mb(peakRss(pid))} (goal < 400 MB)`,
  );
}

async function onDatabase(name: string, env: Record<string, string>, documents: [string, Uint8Array][]): Promise<void> {
  console.log(`${name}:`);
  // A fresh server for each document, so each peak RSS is that restore's own.
  for (const [label, body] of documents) {
    // As `npm start` and the Docker image run it.
    const server = await startServerProcess(env, { nodeArgs: ['--max-semi-space-size=2'] });
    try {
      console.log(`  after start: peak RSS ${mb(peakRss(server.child.pid ?? 0))}`);
      await restoreOnce(server, label, body);
    } finally {
      await server.close();
    }
  }
}

function listDocuments(names: string): [string, Uint8Array][] {
  const kinds = names === 'all' ? LARGE_LISTS : (names.split(',') as LargeList[]);
  return kinds.map((kind) => [`large ${kind}`, Buffer.from(largeListJson(kind, LIST_MB * 1e6))]);
}

export default async function restoreBench(): Promise<void> {
  const valid = LISTS ? '' : largeExportJson({ transactions: ROWS });
  const documents: [string, Uint8Array][] = LISTS
    ? listDocuments(LISTS)
    : [
        [`valid, ${ROWS} transactions`, Buffer.from(valid)],
        [
          'split parents after their parts that do not add up',
          Buffer.from(largeExportJson({ transactions: ROWS, partsFirst: true, unbalanced: true })),
        ],
        ['the valid one cut off before its end', Buffer.from(valid.slice(0, valid.length - 5000))],
      ];
  // RESTORE_BENCH_DATABASES=sqlite or =pg runs on that one alone.
  const databases = process.env.RESTORE_BENCH_DATABASES ?? 'sqlite,pg';
  if (databases.includes('sqlite')) await onDatabase('SQLite', {}, documents);
  if (!databases.includes('pg')) return;
  const adminUrl = process.env.PG_ADMIN_URL ?? DEFAULT_PG_ADMIN_URL;
  if (!(await postgresAnswers(adminUrl))) {
    console.log('PostgreSQL: skipped, none answers at PG_ADMIN_URL');
    return;
  }
  for (const [label, body] of documents) {
    const scratch = await createScratchDatabase('bt_bench', adminUrl);
    try {
      await onDatabase('PostgreSQL (a role without superuser or BYPASSRLS)', { DATABASE_URL: scratch.url }, [
        [label, body],
      ]);
    } finally {
      await scratch.drop();
    }
  }
}
