/**
 * Server CPU per one-month search over REST, and on which threads it is spent: the production server
 * bundle in its own process (bench/server-process.ts), four users each holding 12,000 imported rows over
 * a year (as the concurrency bench seeds its searchers), searching a month of their own (about 920 rows)
 * four at once, after the server has gone idle from the seeding and ten untimed rounds have started the
 * reader threads. The CPU (/proc, user + system) is read per thread: `main` is the event loop (the
 * request, the answer's compression, the send), `node` the reader threads (the search's SQL, which
 * writes the JSON) and libuv's pool. SEARCH_CPU_ROUNDS sets the timed rounds (100), SEARCH_ENCODING
 * the Accept-Encoding (`br, gzip`; `identity` for none).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { registerUser, rest } from '../tests/helpers/http';
import { cpuTimeMs, startServerProcess } from './server-process';
import { getBytes, ms } from './stats';

const USERS = 4;
const ROWS = 12_000;

function csv(rows: number, seed: number): string {
  const lines = ['Date,Description,Amount'];
  for (let i = 0; i < rows; i += 1) {
    const day = new Date(Date.UTC(2024, 0, 1) + Math.floor((i / rows) * 365) * 86400_000).toISOString().slice(0, 10);
    lines.push(
      `${day},Shop ${(i * 7 + seed) % 300} order ${seed}-${i},-${(i % 200) + 1}.${String(i % 100).padStart(2, '0')}`,
    );
  }
  return lines.join('\n');
}

/** CPU (ms) each thread of a process has used so far, summed by thread name (the main thread as `main`). */
function threadsCpuMs(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = tid === String(pid) ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(name, (out.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return out;
}

export default async function run(): Promise<void> {
  const rounds = Number(process.env.SEARCH_CPU_ROUNDS ?? 100);
  const encoding = process.env.SEARCH_ENCODING ?? 'br, gzip';
  const server = await startServerProcess({ UPLOAD_LIMIT_BYTES: String(16 * 1024 * 1024) });
  try {
    const pid = server.child.pid ?? 0;
    const tokens: string[] = [];
    for (let i = 0; i < USERS; i += 1) {
      const user = await registerUser(server.url);
      const token = user.accessToken;
      await rest(server.url, 'POST', '/api/accounts', { token, body: { name: 'Checking', type: 'checking' } });
      const body = new FormData();
      body.append('file', new Blob([csv(ROWS, 1000 + i)]), 'statement.csv');
      body.append('account', 'Checking');
      body.append('transactionType', 'auto');
      const res = await rest(server.url, 'POST', '/api/upload', { token, body });
      if (res.status !== 201) throw new Error(`seed import failed: ${res.status}`);
      tokens.push(token);
    }
    // Idle: no CPU used over half a second (whatever the seeding left running has finished).
    for (let last = cpuTimeMs(pid); ;) {
      await sleep(500);
      const now = cpuTimeMs(pid);
      if (now - last < 1) break;
      last = now;
    }
    const months = ['2024-02', '2024-05', '2024-08', '2024-11'];
    let bytes = 0;
    const round = (r: number) =>
      Promise.all(
        tokens.map(async (token, i) => {
          const month = months[(r + i) % months.length];
          const url = `${server.url}/api/transactions?start_date=${month}-01&end_date=${month}-28`;
          const res = await getBytes(url, token, encoding);
          if (res.status !== 200) throw new Error(`search answered ${res.status}`);
          bytes = res.bytes;
        }),
      );
    for (let r = 0; r < 10; r += 1) await round(r);
    const before = threadsCpuMs(pid);
    const cpu0 = cpuTimeMs(pid);
    for (let r = 0; r < rounds; r += 1) await round(r);
    const searches = rounds * tokens.length;
    const all = (cpuTimeMs(pid) - cpu0) / searches;
    const threads = [...threadsCpuMs(pid)]
      .map(([name, used]) => [name, (used - (before.get(name) ?? 0)) / searches] as const)
      .filter(([, used]) => used > 0)
      .map(([name, used]) => `${name} ${ms(used)}`);
    console.log(
      `one-month search (${Math.round(bytes / 1024)} KB of JSON, Accept-Encoding ${encoding}), ${searches} searches: server CPU ${ms(all)} per search (${threads.join(', ')})`,
    );
  } finally {
    await server.close();
  }
}
